/** Waiting on what a pane shows, for tests that observe a receiving pane directly. */
import assert from 'node:assert/strict';
import type { Coordinator } from '../../../../src/main/coordinator.js';

/** Generous: the machine is shared and noisy; this bounds a hang, it is not a speed requirement. */
export const SCREEN_TIMEOUT_MS = 30_000;

/** Waits until the pane's screen matches `pattern`, and returns the matching snippet. */
export async function expectScreen(coordinator: Coordinator, paneId: string, pattern: string, timeoutMs = SCREEN_TIMEOUT_MS): Promise<string> {
  const result = await coordinator.waitFor(paneId, { pattern, timeoutMs });
  assert.ok(result.matched, `screen of ${paneId} never matched /${pattern}/; it ends with:\n${result.snippet}`);
  return result.snippet;
}

export async function screenText(coordinator: Coordinator, paneId: string): Promise<string> {
  return (await coordinator.grid(paneId)).lines.join('\n');
}

/** Escapes text for use inside a regex pattern. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every `[system]` notice the fake agent in `paneId` has received, from its
 * output log (where a long notice is one line, not rows wrapped at the screen's width).
 */
export async function systemNotices(coordinator: Coordinator, paneId: string): Promise<string[]> {
  const { bytes } = await coordinator.stream(paneId, 0);
  return [...Buffer.from(bytes).toString('utf8').matchAll(/^got\| (\[system\] [^\r\n]*)/gm)].map((match) => match[1]);
}
