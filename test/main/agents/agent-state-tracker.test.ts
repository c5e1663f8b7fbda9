/**
 * Agent states and the permission policy with patterns that backtrack without
 * end: a preset's dialog pattern and a policy's allow
 * pattern run on a matcher thread while the coordinator goes on serving other
 * panes and calls, and the answer says which pattern overran.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured, textOf, type Connection } from '../mcp/helpers/mcp-harness.js';
import { answersMeanwhile, echoes, startBystanders, type Bystanders } from '../mcp/helpers/meanwhile.js';
import { BACKTRACKING_PATTERN } from '../../fixtures/fake-agent-presets.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { parsePermissionPolicy } from '../../../src/main/mcp/services/permission-policy.js';
import { PATTERN_BUDGET_MS } from '../../../src/node/pattern-matcher.js';

const harness = await startHarness({ permissionPolicy: parsePermissionPolicy({ enabled: true, allow: [BACKTRACKING_PATTERN] }).policy });
const LOG = join(harness.root, 'patterm.log');
// Read on every log call, so the coordinator in this process logs here from now on.
process.env.PATTERM_LOG = LOG;
/**
 * The preset's patterns are judged every POLL_MS on their own, so a judgement
 * may be under way before a test's call asks for one: a budget this long
 * leaves that call pending through the checks made meanwhile.
 */
const STATE_BUDGET_MS = 10_000;
harness.mcp.states.patternBudgetMs = STATE_BUDGET_MS;
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

let bystanders: Bystanders | null = null;

interface StateFields {
  state: string;
  state_source: string;
}

async function spawnAgent(connection: Connection, args: Record<string, unknown>): Promise<string> {
  const spawned = await connection.call('spawn_agent', args);
  assert.equal(spawned.isError, undefined, textOf(spawned));
  return structured<{ child_id: string }>(spawned).child_id;
}

const overrunText = (field: string, flags: string, budgetMs: number) =>
  `${field} ${JSON.stringify(BACKTRACKING_PATTERN)}${flags} took longer than ${budgetMs} ms to match and was stopped`;

test('a preset dialog pattern that backtracks: panes and calls answer while it is judged, then the state falls back to quiet time and says why', async () => {
  bystanders ??= await startBystanders(harness);
  // Once its prompt is in, every screen is rows of "a", on which the dialog pattern runs until its budget is spent.
  const childId = await spawnAgent(mcp, { preset: 'backtracking', name: 'backtracker', initial_prompt: 'go' });
  const filled = await harness.coordinator.waitFor(childId, { pattern: '^filled$', timeoutMs: 60_000 });
  assert.ok(filled.matched, filled.snippet);
  const pending = mcp.call('read_output', { child_id: childId, mode: 'grid' });
  const read = await answersMeanwhile(harness, bystanders, pending, () => echoes(harness, childId));
  assert.equal(read.isError, undefined, textOf(read));
  const why = `the preset's patterns are not used for this pane: ${overrunText('dialogs[0].pattern', '', STATE_BUDGET_MS)}`;
  const fromRead = structured<StateFields>(read);
  assert.match(fromRead.state, /^(?:starting|busy|idle)$/);
  assert.ok(fromRead.state_source.startsWith('quiet: ') && fromRead.state_source.includes(why), fromRead.state_source);
  // Set aside for good: later judgements answer at once, with the same evidence.
  const listed = await mcp.call('list_children', {});
  const child = structured<{ children: (StateFields & { child_id: string })[] }>(listed).children.find((entry) => entry.child_id === childId);
  assert.ok(child?.state_source.includes(why), textOf(listed));
  // Its ready pattern is set aside with the rest: quiet time says when a notice may be typed into it.
  await eventually(() => harness.mcp.states.atReadyPrompt(childId), { timeoutMs: 30_000, message: 'the pane to count as at its prompt once quiet' });
  const logged = readFileSync(LOG, 'utf8').split('\n').filter((line) => line.includes(`agent state of pane ${childId}: ${why}`));
  assert.equal(logged.length, 1, 'logged once for the pane');
});

test('a policy allow pattern that backtracks: calls answer while it is checked, then the approval is refused naming the pattern and the budget', async () => {
  bystanders ??= await startBystanders(harness);
  // The dialog shows the command over rows of "a", which the allow pattern is checked against.
  const childId = await spawnAgent(mcp, { preset: 'dialog', initial_prompt: `run echo ${'a'.repeat(1200)}`, name: 'asker' });
  const waiting = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 60_000 });
  assert.equal(structured<{ matched: boolean }>(waiting).matched, true, textOf(waiting));
  const pending = mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  const refused = await answersMeanwhile(harness, bystanders, pending);
  assert.equal(refused.isError, true);
  assert.ok(
    textOf(refused).startsWith(`refused by the permission policy: the dialog could not be checked against the allow patterns: ${overrunText('permissions.allow.0', ' (flags i)', PATTERN_BUDGET_MS)}`),
    textOf(refused),
  );
  const still = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 0 });
  assert.equal(structured<StateFields>(still).state, 'waiting_permission', 'nothing was sent');
});
