import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { answersMeanwhile, echoes, FILL_WITH_A, startBystanders, type Bystanders } from '../helpers/meanwhile.js';
import { eventually } from '../../../helpers/coordinator-fixture.js';
import { PATTERN_BUDGET_MS } from '../../../../src/node/pattern-matcher.js';
import { RETIRE_AFTER_EXIT_MS } from '../../../../src/main/panes/pane-retirement.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

interface Wait {
  matched: boolean;
  snippet: string;
  exited: boolean;
  screen_version: number;
  exit_code: number | null;
}

async function spawn(argv: string[]): Promise<string> {
  const result = await mcp.call('spawn_process', { argv });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<{ child_id: string }>(result).child_id;
}

test('returns matched with the matching line as the snippet', async () => {
  const id = await spawn(['bash', '-c', 'echo starting; sleep 0.3; echo "server listening on :8080"; exec sleep 60']);
  const result = await mcp.call('wait_for_pattern', { child_id: id, pattern: 'listening on :(\\d+)', timeout_seconds: 60 });
  const wait = structured<Wait>(result);
  assert.equal(wait.matched, true);
  assert.equal(wait.snippet, 'server listening on :8080');
  assert.equal(wait.exited, false);
  assert.match(textOf(result), /^matched/);
});

test('times out with matched false and the screen tail', async () => {
  const id = await spawn(['bash', '-c', 'echo only this; exec sleep 60']);
  await mcp.call('wait_for_pattern', { child_id: id, pattern: 'only this', timeout_seconds: 60 });
  const wait = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: id, pattern: 'never', timeout_seconds: 0.2 }));
  assert.equal(wait.matched, false);
  assert.equal(wait.snippet, 'only this');
});

test('ignore_case matches regardless of case', async () => {
  const id = await spawn(['bash', '-c', 'echo BUILD FAILED; exec sleep 60']);
  const wait = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: id, pattern: 'build failed', ignore_case: true, timeout_seconds: 60 }));
  assert.equal(wait.matched, true);
});

test('absent: true waits until the pattern is gone from the screen', async () => {
  const id = await spawn(['bash', '-c', 'stty -echo; printf "working..."; read; printf "\\r\\033[Kdone\\n"; exec sleep 60']);
  await mcp.call('wait_for_pattern', { child_id: id, pattern: 'working', timeout_seconds: 60 });
  const present = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: id, pattern: 'working', absent: true, timeout_seconds: 0.2 }));
  assert.equal(present.matched, false, 'still working');
  const waiting = mcp.call('wait_for_pattern', { child_id: id, pattern: 'working', absent: true, timeout_seconds: 60 });
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'enter' });
  const gone = structured<Wait>(await waiting);
  assert.equal(gone.matched, true);
  assert.doesNotMatch((await harness.coordinator.grid(id)).lines.join('\n'), /working/);
});

test('stable_ms waits for the screen to stop changing', async () => {
  const id = await spawn(['bash', '-c', 'for i in 1 2 3 4 5; do echo tick $i; sleep 0.1; done; exec sleep 60']);
  const wait = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: id, stable_ms: 400, timeout_seconds: 60 }));
  assert.equal(wait.matched, true);
  // Settling means the burst was over: the last tick is on screen.
  assert.match((await harness.coordinator.grid(id)).lines.join('\n'), /tick 5/);
  const withPattern = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: id, pattern: 'tick 5', stable_ms: 100, timeout_seconds: 60 }));
  assert.equal(withPattern.matched, true);
  assert.equal(withPattern.snippet, 'tick 5');
});

test('ends at once with exited: true when the child exits', async () => {
  const id = await spawn(['bash', '-c', 'read; exit 4']);
  const waiting = mcp.call('wait_for_pattern', { child_id: id, pattern: 'never shows', timeout_seconds: 600 });
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'enter' });
  const wait = structured<Wait>(await waiting);
  assert.equal(wait.matched, false);
  assert.equal(wait.exited, true);
  assert.equal(wait.exit_code, 4);
  // And on a child that has already exited, it answers without waiting out the timeout.
  const again = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: id, pattern: 'never shows', timeout_seconds: 1800 }));
  assert.equal(again.exited, true);
});

test('needs a pattern or stable_ms, and absent needs a pattern', async () => {
  const id = await spawn(['sleep', '60']);
  assert.match(textOf(await mcp.call('wait_for_pattern', { child_id: id, timeout_seconds: 1 })), /give pattern, stable_ms, or both/);
  assert.match(textOf(await mcp.call('wait_for_pattern', { child_id: id, absent: true, stable_ms: 5, timeout_seconds: 1 })), /absent: true needs a pattern/);
});

/** 40 a's and a mismatch: "^(a+)+$" backtracks through 2^40 splits of it, days of matching. */
const CATASTROPHIC_LINE = `${'a'.repeat(40)}!`;

let bystanders: Bystanders | null = null;

test('a pattern that backtracks catastrophically ends the wait with the problem named, and the pane stays live', async () => {
  const childId = await spawn(['sh', '-c', `echo ${CATASTROPHIC_LINE}; exec cat`]);
  await mcp.call('wait_for_pattern', { child_id: childId, pattern: '!$', timeout_seconds: 30 });
  const result = await mcp.call('wait_for_pattern', { child_id: childId, pattern: '^(a+)+$', ignore_case: true, timeout_seconds: 600 });
  assert.equal(result.isError, true);
  assert.match(textOf(result), new RegExp(`^pattern: "\\^\\(a\\+\\)\\+\\$" \\(flags i\\) took longer than ${PATTERN_BUDGET_MS} ms to match and was stopped`));
  // The pane's worker was not left hanging: it still echoes and matches.
  await mcp.call('send_input', { child_id: childId, text: 'still here', submit: true });
  const after = structured<Wait>(await mcp.call('wait_for_pattern', { child_id: childId, pattern: 'still here', timeout_seconds: 30 }));
  assert.equal(after.matched, true);
});

test('a polynomial pattern on a live pane fails after its budget; meanwhile that pane, a quiet pane and another agent answer', async () => {
  bystanders ??= await startBystanders(harness);
  const childId = await spawn(['sh', '-c', FILL_WITH_A]);
  await mcp.call('wait_for_pattern', { child_id: childId, pattern: '^filled$', timeout_seconds: 60 });
  // Every row of the screen is 120 "a": ".*.*.*.*X" takes seconds a row to give up on it.
  const pending = mcp.call('wait_for_pattern', { child_id: childId, pattern: '.*.*.*.*X', timeout_seconds: 600 });
  const result = await answersMeanwhile(harness, bystanders, pending, () => echoes(harness, childId));
  assert.equal(result.isError, true);
  assert.equal(textOf(result), `pattern: ".*.*.*.*X" took longer than ${PATTERN_BUDGET_MS} ms to match and was stopped: it backtracks too much (repeated or nested quantifiers such as ".*.*.*X" or "(a+)+"); simplify it`);
});

test('a polynomial pattern on an exited pane (its worker retired) fails after its budget; meanwhile a quiet pane and another agent answer', async () => {
  bystanders ??= await startBystanders(harness);
  harness.coordinator.retirement.afterExitMs = 0;
  let childId: string;
  try {
    childId = await spawn(['sh', '-c', FILL_WITH_A.replace('exec cat', 'exit 0')]);
    await harness.coordinator.exitPromise(childId);
    await eventually(() => harness.coordinator.workerRetired(childId), { timeoutMs: 30_000, message: 'the exited pane\'s worker to be retired' });
  } finally {
    harness.coordinator.retirement.afterExitMs = RETIRE_AFTER_EXIT_MS;
  }
  // Matched on the coordinator's side now (frozen-pane.ts), where it once stalled every call.
  const pending = mcp.call('wait_for_pattern', { child_id: childId, pattern: '.*.*.*.*.*X', timeout_seconds: 600 });
  const result = await answersMeanwhile(harness, bystanders, pending);
  assert.equal(result.isError, true);
  assert.match(textOf(result), new RegExp(`^pattern: "\\.\\*\\.\\*\\.\\*\\.\\*\\.\\*X" took longer than ${PATTERN_BUDGET_MS} ms`));
});
