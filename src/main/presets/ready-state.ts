/**
 * Reads an agent's state off its screen, from the preset's ready_signal
 * (or, without one, quiet time): ready (waiting at its input), busy (working), or neither
 * (starting, or showing something else such as a permission prompt).
 */
import type { ReadySignal } from '../../shared/preset-schema.js';
import { patternMatcher } from '../../node/pattern-matcher.js';

export type ScreenState = 'ready' | 'busy' | 'other';

/** Default ready signal, for a preset that names none: the idle threshold's quiet after launch. */
export const DEFAULT_READY_SIGNAL: ReadySignal = { kind: 'idle' };
/** How long spawn waits for a ready signal by default: an agent CLI can take many seconds to start on a small, loaded machine. */
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
/** Default quiet time after the ready text appears, so typing does not race the last paint. */
export const DEFAULT_READY_STABLE_MS = 200;

export function readyTimeoutMs(signal: ReadySignal): number {
  return signal.timeout_ms ?? DEFAULT_READY_TIMEOUT_MS;
}

/**
 * For pattern signals only: idle signals cannot be judged from one screen.
 * The preset's patterns match on a pattern matcher thread; one that overruns
 * its budget rejects, naming the field and the pattern.
 */
export async function screenState(signal: ReadySignal, lines: readonly string[]): Promise<ScreenState> {
  if (signal.kind !== 'pattern') return 'other';
  const text = lines.join('\n');
  if (signal.busy_pattern !== undefined && (await shows('busy_pattern', signal.busy_pattern, signal.flags, text))) return 'busy';
  return (await shows('pattern', signal.pattern, signal.flags, text)) ? 'ready' : 'other';
}

async function shows(field: string, pattern: string, flags: string | undefined, text: string): Promise<boolean> {
  const found = await patternMatcher().search({ pattern, flags: flags ?? '' }, text);
  if (!found.ok) throw new Error(`ready_signal.${field}: ${found.problem}`);
  return found.value !== null;
}

/**
 * One regex that matches exactly when the screen is ready: the ready pattern is
 * present and the busy pattern absent. It anchors at the start of the text
 * (the lookbehind fails everywhere else), so the lookahead runs once per check.
 */
export function readyRegexSource(signal: ReadySignal & { kind: 'pattern' }): string {
  const ready = `(?:${signal.pattern})`;
  if (signal.busy_pattern === undefined) return ready;
  return `(?<![\\s\\S])(?![\\s\\S]*(?:${signal.busy_pattern}))[\\s\\S]*?${ready}`;
}
