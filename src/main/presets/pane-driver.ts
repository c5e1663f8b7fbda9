/**
 * Drives one agent pane the way a person would: wait until it is ready, type
 * a message, press Enter, and check on screen that it was really submitted
 * (an unconfirmed Enter is reported, never assumed). Uses only the
 * coordinator's public API.
 */
import type { ReadySignal, SubmitOptions } from '../../shared/preset-schema.js';
import type { GridSnapshot, InputSource, PaneId } from '../../shared/pane-types.js';
import { bracketedPaste } from '../../shared/key-bytes.js';
import type { SubmitResult } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import { DEFAULT_READY_STABLE_MS, readyTimeoutMs, screenState } from './ready-state.js';
import { screenTail, watchScreen } from './screen-watch.js';
import { confirmSubmission, typedInput, type ScreenView, type TypedInput } from './submission-check.js';

/** Quiet time before Enter by default: long enough for the echo to paint, short enough not to be noticed. */
export const DEFAULT_ENTER_DELAY_MS = 150;
/** How long to wait for proof of submission before the one retry. */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 5000;
/** How long typed text may take to show up on screen before Enter is pressed anyway. */
const ECHO_TIMEOUT_MS = 3000;
/** How long a message waits for the agent to be at its input (not in a dialog) before giving up. */
export const DEFAULT_INPUT_WAIT_MS = 30_000;
const ENTER = '\r';

export interface ReadyOutcome {
  ready: boolean;
  elapsedMs: number;
  detail: string;
}

/**
 * Resolves when the pane shows its ready signal: the ready pattern with no busy
 * marker and a still screen, or (idle signals) some output followed by quiet.
 */
export async function waitReady(coordinator: Coordinator, paneId: PaneId, signal: ReadySignal, idleThresholdMs: number): Promise<ReadyOutcome> {
  const started = performance.now();
  const timeoutMs = readyTimeoutMs(signal);
  const stableMs = signal.kind === 'pattern' ? (signal.stable_ms ?? DEFAULT_READY_STABLE_MS) : 0;
  const idleMs = signal.kind === 'idle' ? (signal.idle_ms ?? idleThresholdMs) : 0;
  let heldSince: { version: number; at: number } | null = null;
  let sawOutput = false;
  const outcome = await watchScreen(
    coordinator,
    paneId,
    async (grid) => {
      if (signal.kind === 'idle') {
        // Quiet before the first byte is not readiness: the program has not drawn anything yet.
        sawOutput ||= grid.lines.some((line) => line !== '') || grid.screenVersion > 1;
        return sawOutput && grid.idleMs >= idleMs ? true : null;
      }
      if ((await screenState(signal, grid.lines)) !== 'ready') {
        heldSince = null;
        return null;
      }
      const now = performance.now();
      if (heldSince === null || heldSince.version !== grid.screenVersion) heldSince = { version: grid.screenVersion, at: now };
      return now - heldSince.at >= stableMs ? true : null;
    },
    timeoutMs,
  );
  const elapsedMs = Math.round(performance.now() - started);
  if (outcome.kind === 'held') return { ready: true, elapsedMs, detail: `ready after ${elapsedMs} ms` };
  if (outcome.kind === 'failed') return { ready: false, elapsedMs, detail: outcome.problem };
  const why = outcome.kind === 'exited' ? 'the process exited' : `no ready signal within ${timeoutMs} ms`;
  return { ready: false, elapsedMs, detail: `${why}; the screen ends with: ${screenTail(outcome.grid)}` };
}

export interface SubmitRequest {
  text: string;
  source: InputSource;
  signal: ReadySignal;
  options: SubmitOptions;
  inputWaitMs?: number;
}

/**
 * Types `text` and presses Enter, then looks for proof on screen (busy marker,
 * or the input line emptied). Without proof it presses Enter once more, and
 * reports failure rather than claiming success.
 */
export async function submitText(coordinator: Coordinator, paneId: PaneId, request: SubmitRequest): Promise<SubmitResult> {
  const { signal, options, text, source } = request;
  // Typing into a dialog (a permission prompt, say) could answer it: wait until
  // the agent is at its input, or working (all three CLIs queue typed messages then).
  if (signal.kind === 'pattern') {
    const atInput = await watchScreen(coordinator, paneId, async (grid) => ((await screenState(signal, grid.lines)) !== 'other' ? true : null), request.inputWaitMs ?? DEFAULT_INPUT_WAIT_MS);
    if (atInput.kind === 'failed') return { submitted: false, attempts: 0, detail: `nothing was typed: ${atInput.problem}` };
    if (atInput.kind !== 'held') {
      return { submitted: false, attempts: 0, detail: `nothing was typed: the agent is not at its input prompt (${atInput.kind === 'exited' ? 'it exited' : 'maybe a dialog or permission prompt is open'}); the screen ends with: ${screenTail(atInput.grid)}` };
    }
  }
  const before = await coordinator.grid(paneId);
  const paste = options.paste ?? 'auto';
  const asPaste = paste === 'always' || (paste === 'auto' && (before.bracketedPaste || text.includes('\n')));
  coordinator.write(paneId, asPaste ? bracketedPaste(text) : text, source);

  const afterTyping = await settleAfterTyping(coordinator, paneId, before, options.enter_delay_ms ?? DEFAULT_ENTER_DELAY_MS);
  let typed: TypedInput;
  try {
    typed = typedInput(await viewOf(signal, before), await viewOf(signal, afterTyping));
  } catch (error) {
    return { submitted: false, attempts: 0, detail: `the text was typed but Enter was not pressed: ${(error as Error).message}` };
  }
  const confirmTimeout = options.confirm_timeout_ms ?? DEFAULT_CONFIRM_TIMEOUT_MS;

  let last: GridSnapshot | null = afterTyping;
  for (let attempt = 1; attempt <= 2; attempt++) {
    coordinator.write(paneId, ENTER, source);
    const outcome = await watchScreen(coordinator, paneId, async (grid) => confirmSubmission(typed, await viewOf(signal, grid)), confirmTimeout);
    if (outcome.kind === 'held') return { submitted: true, attempts: attempt, detail: `confirmed (${outcome.value})${asPaste ? ' as a bracketed paste' : ''}` };
    last = outcome.grid ?? last;
    if (outcome.kind === 'failed') return { submitted: false, attempts: attempt, detail: `Enter was pressed but the submission cannot be confirmed: ${outcome.problem}` };
    if (outcome.kind === 'exited') return { submitted: false, attempts: attempt, detail: `the agent exited before the submission showed; the screen ends with: ${screenTail(last)}` };
  }
  return {
    submitted: false,
    attempts: 2,
    detail: `no sign of submission after Enter twice (${confirmTimeout} ms each): no busy marker and the input line still shows ${JSON.stringify(typed.echoRow.trim())}; the screen ends with: ${screenTail(last)}`,
  };
}

/** Waits for the typed text to show, then for `quietMs` of stillness (codex reads a fast Enter as part of a paste). */
async function settleAfterTyping(coordinator: Coordinator, paneId: PaneId, before: GridSnapshot, quietMs: number): Promise<GridSnapshot> {
  // The text, not the cursor: a CLI may hide or park its cursor before it echoes (a new screen version with the same cells).
  const changed = await watchScreen(coordinator, paneId, (grid) => (grid.screenVersion !== before.screenVersion && !sameLines(grid.lines, before.lines) ? grid : null), ECHO_TIMEOUT_MS);
  let since = { version: changed.grid?.screenVersion ?? before.screenVersion, at: performance.now() };
  const still = await watchScreen(
    coordinator,
    paneId,
    (grid) => {
      const now = performance.now();
      if (grid.screenVersion !== since.version) since = { version: grid.screenVersion, at: now };
      return now - since.at >= quietMs ? grid : null;
    },
    // A busy agent animates a spinner and never holds still; press Enter after a bounded wait anyway.
    quietMs + ECHO_TIMEOUT_MS,
  );
  return still.grid ?? changed.grid ?? before;
}

/** A screen as the submission check reads it: with what the ready signal makes of it. */
async function viewOf(signal: ReadySignal, grid: GridSnapshot): Promise<ScreenView> {
  return { lines: grid.lines, cursor: grid.cursor, state: await screenState(signal, grid.lines) };
}

export function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}
