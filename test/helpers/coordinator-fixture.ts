/**
 * Shared test helpers: a real Coordinator that is always shut down, and small
 * polling utilities for conditions that have no event to wait on (e.g. /proc).
 */
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { Coordinator } from '../../src/main/coordinator.js';
import { UTF8_LOCALE } from './locale.js';

export function useCoordinator(projectDir?: string): Coordinator {
  const coordinator = new Coordinator(projectDir);
  after(() => coordinator.shutdown(500));
  return coordinator;
}

/**
 * Only a deadline for a condition that never comes: the wait ends as soon as it holds. Generous, as the
 * conditions wait on workers booting and programs starting on a loaded two-core machine.
 */
const EVENTUALLY_TIMEOUT_MS = 30_000;

export async function eventually<T>(probe: () => T | Promise<T>, { timeoutMs = EVENTUALLY_TIMEOUT_MS, intervalMs = 20, message = 'condition' } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${message} (last value: ${JSON.stringify(last)})`);
}

export { sleep } from './wait.js';

/** A bash with no rc files, a fixed prompt and a UTF-8 locale, so screens are predictable. */
export const BASH = ['bash', '--norc', '--noprofile', '-i'];
export const BASH_ENV = { PS1: '$ ', HISTFILE: '/dev/null', ...UTF8_LOCALE };

/** A program that turns focus reporting (DEC 1004) on unless told not to, then logs every byte it receives as `got "…"` (ESC spelled out). */
export const focusLogger = (enable: boolean) => [
  process.execPath,
  '-e',
  `process.stdin.setRawMode(true); process.stdout.write('${enable ? '\\x1b[?1004h' : ''}READY\\r\\n');` +
    `process.stdin.on('data', (d) => process.stdout.write('got ' + JSON.stringify(d.toString()).replaceAll('\\\\u001b', 'ESC') + '\\r\\n'));`,
];

/** Starts the predictable bash above as a pane and waits for its first prompt. */
export async function startBash(coordinator: Coordinator, timeoutMs = 15_000) {
  const pane = await coordinator.spawn({ argv: BASH, env: BASH_ENV, kind: 'process' });
  const prompt = await coordinator.waitFor(pane.id, { pattern: '^\\$$', timeoutMs });
  assert.equal(prompt.matched, true, 'bash showed its prompt');
  return pane;
}
