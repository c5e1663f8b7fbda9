import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf, type Connection } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const ORCHESTRATOR_ONLY = ['spawn_agent', 'send_message_to', 'request_human_attention', 'worktree_list', 'worktree_diff', 'worktree_remove'];

async function session() {
  const { pane, token } = await harness.orchestrator();
  const orchestrator = await harness.connect(token);
  return { root: pane, orchestrator };
}

async function spawnSleep(connection: Connection): Promise<string> {
  const result = await connection.call('spawn_process', { argv: ['sleep', '120'] });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<{ child_id: string }>(result).child_id;
}

test('every tool is listed with a JSON Schema, a description and annotations; sub-agents do not see orchestrator-only tools', async () => {
  const { orchestrator } = await session();
  const { tools } = await orchestrator.client.listTools();
  assert.equal(tools.length, 24);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties, false, `${tool.name} rejects unknown fields`);
    assert.ok((tool.description ?? '').length > 80, `${tool.name} has a description written for the model`);
    assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean', `${tool.name} says whether it is read-only`);
  }
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.equal(byName.read_output.annotations?.readOnlyHint, true);
  assert.equal(byName.kill.annotations?.destructiveHint, true);
  assert.deepEqual(byName.wait_for_pattern.inputSchema.required, ['child_id', 'timeout_seconds']);
  assert.deepEqual((byName.read_output.inputSchema.properties as Record<string, { enum?: string[] }>).mode.enum, ['grid', 'stream']);
  assert.equal(byName.run_command.annotations?.destructiveHint, true, 'it runs any command');
  assert.equal(byName.command_history.annotations?.readOnlyHint, true);
  assert.deepEqual(byName.wait_for_command.inputSchema.required, ['child_id', 'seq', 'timeout_seconds']);
  assert.deepEqual(byName.run_command.inputSchema.required, ['child_id', 'command']);

  const childId = await spawnSleep(orchestrator);
  const sub = await harness.connect(harness.tokenFor(childId));
  const subTools = (await sub.client.listTools()).tools.map((tool) => tool.name);
  assert.equal(subTools.length, 18);
  for (const name of ORCHESTRATOR_ONLY) assert.ok(!subTools.includes(name), `${name} hidden from sub-agents`);
});

test('two-level rule: a sub-agent calling orchestrator-only tools gets a clear error', async () => {
  const { orchestrator } = await session();
  const childId = await spawnSleep(orchestrator);
  const sub = await harness.connect(harness.tokenFor(childId));
  const calls: [string, Record<string, unknown>][] = [
    ['spawn_agent', { preset: 'fake', initial_prompt: 'hi' }],
    ['send_message_to', { target: childId, message: 'hi' }],
    ['request_human_attention', { child_id: childId, reason: 'why' }],
  ];
  for (const [name, args] of calls) {
    const result = await sub.call(name, args);
    assert.equal(result.isError, true, name);
    assert.match(textOf(result), new RegExp(`^${name} is only available to a session's orchestrator, and you are a sub-agent.*two-level tree`));
  }
  assert.equal(harness.coordinator.children(childId).length, 1, 'no agent was spawned');
});

test('a sub-agent acts only on what it spawned; its processes report to it', async () => {
  const { orchestrator } = await session();
  const subId = await spawnSleep(orchestrator);
  const siblingId = await spawnSleep(orchestrator);
  const sub = await harness.connect(harness.tokenFor(subId));
  const mine = await spawnSleep(sub);

  const listed = structured<{ children: { child_id: string; spawned_by: string }[] }>(await sub.call('list_children'));
  assert.deepEqual(listed.children.map((child) => child.child_id), [mine]);
  assert.equal(listed.children[0].spawned_by, harness.coordinator.info(subId).name);

  for (const [name, args] of [
    ['read_output', { child_id: siblingId }],
    ['send_input', { child_id: siblingId, text: 'x' }],
    ['kill', { child_id: siblingId }],
    ['wait_for_pattern', { child_id: siblingId, pattern: 'x', timeout_seconds: 0 }],
  ] as const) {
    const result = await sub.call(name, args);
    assert.equal(result.isError, true, name);
    assert.match(textOf(result), /was not spawned by you; a sub-agent can only act on the processes it spawned itself/);
  }
  assert.equal(harness.coordinator.info(siblingId).process.status, 'running');
  assert.equal((await sub.call('read_output', { child_id: mine })).isError, undefined);
  // The orchestrator still sees the whole session, including its sub-agent's process.
  const all = structured<{ children: { child_id: string }[] }>(await orchestrator.call('list_children')).children.map((child) => child.child_id);
  assert.deepEqual(all.sort(), [subId, siblingId, mine].sort());
});

test('an orchestrator cannot reach into another session, nor target itself', async () => {
  const first = await session();
  const second = await session();
  const theirs = await spawnSleep(second.orchestrator);
  const result = await first.orchestrator.call('read_output', { child_id: theirs });
  assert.equal(result.isError, true);
  assert.match(textOf(result), new RegExp(`child_id "${theirs}" belongs to another session`));
  const self = await first.orchestrator.call('kill', { child_id: first.root.id });
  assert.match(textOf(self), /is your own pane/);
  assert.equal(harness.coordinator.info(first.root.id).process.status, 'running');
});

test('report_to_parent from an orchestrator is refused: it has no parent', async () => {
  const { orchestrator } = await session();
  const result = await orchestrator.call('report_to_parent', { message: 'hello?' });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /you are the orchestrator of your session; there is no parent/);
});
