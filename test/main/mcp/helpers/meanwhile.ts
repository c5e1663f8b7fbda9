/**
 * What must go on while one caller's pathological pattern is being matched:
 * a quiet pane echoes what is typed into it, and another agent's calls
 * answer. Each is checked to complete while that call is still pending, not
 * against a time limit.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Connection, Harness } from './mcp-harness.js';
import { structured, textOf } from './mcp-harness.js';

/** A long line of "a": polynomial patterns such as ".*.*.*.*X" take minutes to fail on it. */
export const LONG_A_LINE = 'a'.repeat(4000);
export { FILL_WITH_A } from '../../../fixtures/fake-agent-presets.js';

export interface Bystanders {
  /** A pane of no one's business that only echoes. */
  quietPaneId: string;
  /** Another session's agent, with a child of its own. */
  other: Connection;
  otherChildId: string;
}

export async function startBystanders(harness: Harness): Promise<Bystanders> {
  const quiet = await harness.coordinator.spawn({ argv: ['cat'], kind: 'process' });
  const { token } = await harness.orchestrator('bystander');
  const other = await harness.connect(token);
  const spawned = await other.call('spawn_process', { argv: ['sh', '-c', 'echo bystander-output; exec cat'] });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const otherChildId = structured<{ child_id: string }>(spawned).child_id;
  return { quietPaneId: quiet.id, other, otherChildId };
}

/** Typed text shows on `paneId`'s screen (its worker parses and its waits match). */
export async function echoes(harness: Harness, paneId: string): Promise<void> {
  const mark = `echo-${randomUUID().slice(0, 8)}`;
  harness.coordinator.write(paneId, `${mark}\r`, 'orchestrator');
  const seen = await harness.coordinator.waitFor(paneId, { pattern: mark, timeoutMs: 60_000 });
  assert.ok(seen.matched, `${mark} echoed: ${seen.snippet}`);
}

/**
 * Runs the bystanders' work (and `extra`, such as the pending call's own pane
 * echoing) to completion, and asserts that `pending` had not settled by then.
 * Returns `pending`'s result.
 */
export async function answersMeanwhile(harness: Harness, bystanders: Bystanders, pending: Promise<CallToolResult>, extra: () => Promise<void> = async () => {}): Promise<CallToolResult> {
  let settled = false;
  const tracked = pending.finally(() => (settled = true));
  for (let i = 0; i < 3; i++) await echoes(harness, bystanders.quietPaneId);
  await extra();
  const listed = await bystanders.other.call('list_children', {});
  assert.equal(listed.isError, undefined, textOf(listed));
  const wait = await bystanders.other.call('wait_for_pattern', { child_id: bystanders.otherChildId, pattern: 'bystander-output', timeout_seconds: 60 });
  assert.equal(structured<{ matched: boolean }>(wait).matched, true, textOf(wait));
  const read = await bystanders.other.call('read_output', { child_id: bystanders.otherChildId, mode: 'stream', pattern: '^bystander' });
  assert.equal(structured<{ content: string }>(read).content, 'bystander-output', textOf(read));
  assert.equal(settled, false, 'the echoes and the other agent\'s calls all answered while the pathological call was still pending');
  return tracked;
}
