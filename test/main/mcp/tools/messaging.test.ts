import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { expectScreen, literal, screenText } from '../helpers/screen.js';

const harness = await startHarness();

async function session() {
  const { pane, token } = await harness.orchestrator();
  return { root: pane, mcp: await harness.connect(token) };
}

test('spawn_agent launches the preset, waits for ready, and submits the initial prompt', async () => {
  const { root, mcp } = await session();
  const result = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'please summarise the repo', name: 'helper' });
  assert.equal(result.isError, undefined, textOf(result));
  const spawned = structured<{ child_id: string; name: string; prompt_submitted: boolean }>(result);
  assert.equal(spawned.name, 'helper');
  assert.equal(spawned.prompt_submitted, true);
  assert.match(textOf(result), /initial_prompt submitted/);
  const child = harness.coordinator.info(spawned.child_id);
  assert.equal(child.parentId, root.id);
  assert.equal(child.kind, 'agent');
  assert.equal(child.owner, 'orchestrator');
  // The child got its own MCP connection through the injected config, and exactly the prompt as its first turn.
  await expectScreen(harness.coordinator, child.id, 'mcp\\| connected, 18 tools');
  await expectScreen(harness.coordinator, child.id, '^got\\| please summarise the repo$');
});

test('spawn_agent with cols and rows starts the agent at that size, which it keeps when patterm is resized', async () => {
  const { mcp } = await session();
  const result = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'sized', cols: 64, rows: 12 });
  assert.equal(result.isError, undefined, textOf(result));
  const spawned = structured<{ child_id: string; cols: number; rows: number; own_size: boolean }>(result);
  assert.deepEqual([spawned.cols, spawned.rows, spawned.own_size], [64, 12, true]);
  const shared = harness.coordinator.paneSize;
  try {
    harness.coordinator.setPaneSize(shared.cols + 20, shared.rows + 5);
    const grid = structured<{ cols: number; rows: number }>(await mcp.call('read_output', { child_id: spawned.child_id }));
    assert.deepEqual([grid.cols, grid.rows], [64, 12]);
  } finally {
    harness.coordinator.setPaneSize(shared.cols, shared.rows);
  }
  const oneSided = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'x', rows: 12 });
  assert.equal(oneSided.isError, true);
  assert.match(textOf(oneSided), /give cols and rows together for a child of its own size \(received only rows 12\)/);
});

test('spawn_agent with an unknown preset names the known ones', async () => {
  const { mcp } = await session();
  const result = await mcp.call('spawn_agent', { preset: 'gpt-7', initial_prompt: 'hi' });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /could not spawn agent preset "gpt-7": unknown agent preset "gpt-7"; known agent presets: .*fake/);
});

test('send_message_to types "[orchestrator] <msg>" into the child and submits it', async () => {
  const { mcp } = await session();
  const childId = structured<{ child_id: string }>(await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'start' })).child_id;
  const result = await mcp.call('send_message_to', { target: childId, message: 'run the tests and tell me what fails' });
  assert.equal(structured<{ submitted: boolean }>(result).submitted, true, textOf(result));
  await expectScreen(harness.coordinator, childId, `^got\\| ${literal('[orchestrator] run the tests and tell me what fails')}$`);
  // Multi-line messages arrive whole, as one submission.
  await mcp.call('send_message_to', { target: childId, message: 'step one\nstep two' });
  await expectScreen(harness.coordinator, childId, `^got\\| ${literal('[orchestrator] step one')}\\ngot\\| step two$`);
});

test('report_to_parent shows "[sub-agent:<name>] <msg>" on the parent\'s screen', async () => {
  const { root, mcp } = await session();
  const childId = structured<{ child_id: string }>(await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'start', name: 'scout' })).child_id;
  // The child's own MCP connection (through its injected config) makes the call, as a real sub-agent would.
  await mcp.call('send_message_to', { target: childId, message: '/call report_to_parent {"message":"found 3 failing tests"}' });
  await expectScreen(harness.coordinator, childId, 'result\\| report_to_parent: reported to');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[sub-agent:scout] found 3 failing tests')}$`);
});

test('timer_wait returns at once and later injects "[system] Your timer [<label>] has completed."', async () => {
  const { root, mcp } = await session();
  const result = await mcp.call('timer_wait', { seconds: 0.5, label: 'check build' });
  const timer = structured<{ timer_id: string; label: string; fires_at: string }>(result);
  assert.match(timer.timer_id, /^timer-[0-9a-f]+$/);
  assert.equal(timer.label, 'check build');
  assert.ok(!Number.isNaN(Date.parse(timer.fires_at)));
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] Your timer [check build] has completed.')}$`);
  // Without a label, one is made up.
  const unlabelled = structured<{ label: string }>(await mcp.call('timer_wait', { seconds: 0 }));
  assert.equal(unlabelled.label, 'timer-1');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] Your timer [timer-1] has completed.')}$`);
});

test('a child exiting on its own is announced to its spawner; notify_on_exit: false and self-kills stay quiet', async () => {
  const { root, mcp } = await session();
  const quiet = structured<{ child_id: string; name: string }>(await mcp.call('spawn_process', { argv: ['sh', '-c', 'exit 4'], name: 'quiet-one', notify_on_exit: false }));
  await mcp.call('wait_for_pattern', { child_id: quiet.child_id, pattern: 'x', timeout_seconds: 60 });
  const killed = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'killed-one' }));
  await mcp.call('kill', { child_id: killed.child_id });
  const loud = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sh', '-c', 'exit 3'], name: 'loud-one' }));
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] loud-one exited with code 3')}$`);
  // Messages to one pane are delivered in order, so the earlier exits would have shown before this one.
  const screen = await screenText(harness.coordinator, root.id);
  assert.doesNotMatch(screen, /quiet-one|killed-one/);
  assert.equal(harness.coordinator.info(loud.child_id).process.exitCode, 3);
});

test('a child killed by a signal is announced with the shell\'s 128+N code', async () => {
  const { root, mcp } = await session();
  const child = structured<{ child_id: string; pid: number }>(await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'victim' }));
  process.kill(child.pid, 'SIGKILL');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] victim exited with code 137 (SIGKILL)')}$`);
});

test('request_human_attention raises an attention event for the TUI', async () => {
  const { mcp } = await session();
  const childId = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '60'] })).child_id;
  const seen = new Promise<{ paneId: string; reason: string }>((resolve) => harness.mcp.onAttention(resolve));
  const result = await mcp.call('request_human_attention', { child_id: childId, reason: 'wants to run rm -rf /tmp/x' });
  assert.equal(result.isError, undefined, textOf(result));
  assert.deepEqual(await seen, { paneId: childId, reason: 'wants to run rm -rf /tmp/x' });
});
