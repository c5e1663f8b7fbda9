import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { failure, run, scratchHome, spawnShell } from '../helpers/shells.js';

const harness = await startHarness();
const { pane: orchestrator, token } = await harness.orchestrator('orch');
const mcp = await harness.connect(token);

test('two agents subscribed; one runs a command: the other gets one notice, the writer none; a human command reaches both', async () => {
  // A sub-agent of the orchestrator's, which spawns the shell (so both may act on it).
  const spawnedAgent = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'hello', name: 'helper' });
  assert.equal(spawnedAgent.isError, undefined, textOf(spawnedAgent));
  const helper = structured<{ child_id: string }>(spawnedAgent).child_id;
  const sub = await harness.connect(harness.tokenFor(helper));
  const { child_id: shell } = await spawnShell(sub, { shell: 'bash', name: 'watched' }, scratchHome(harness.root));
  for (const connection of [mcp, sub]) {
    const subscribed = await connection.call('subscribe_commands', { child_id: shell });
    assert.equal(structured<{ subscribed: boolean }>(subscribed).subscribed, true, textOf(subscribed));
  }
  assert.match(textOf(await mcp.call('subscribe_commands', { child_id: shell })), /already subscribed/);

  const notice = (seq: number) => `\\[system\\] watched: \`[^\`]*\` exited \\d+ in [\\d.]+ m?s \\(seq ${seq}, run by `;
  const byOrchestrator = await run(mcp, shell, 'echo from-orch; (exit 2)');
  const helperSaw = structured<{ matched: boolean; snippet: string }>(await mcp.call('wait_for_pattern', { child_id: helper, pattern: notice(byOrchestrator.seq!), timeout_seconds: 60 }));
  assert.ok(helperSaw.matched, helperSaw.snippet);
  const helperScreen = structured<{ content: string }>(await mcp.call('read_output', { child_id: helper })).content;
  assert.match(helperScreen, /got\| \[system\] watched: `echo from-orch; \(exit 2\)` exited 2 in [\d.]+ m?s \(seq \d+, run by agent:orch\)\s+got\| from-orch/);

  const bySub = await run(sub, shell, 'echo from-helper');
  const orchestratorSaw = await harness.coordinator.waitFor(orchestrator.id, { pattern: notice(bySub.seq!), timeoutMs: 60_000 });
  assert.ok(orchestratorSaw.matched, orchestratorSaw.snippet);
  const orchestratorScreen = (await harness.coordinator.grid(orchestrator.id)).lines.join('\n');
  assert.doesNotMatch(orchestratorScreen, new RegExp(notice(byOrchestrator.seq!)), 'the writer is not told of its own command');
  assert.equal(orchestratorScreen.match(/\[system\] watched:/g)?.length, 1, 'one notice');

  harness.coordinator.write(shell, 'echo by-hand\r', 'user');
  const helperAgain = await harness.coordinator.waitFor(helper, { pattern: 'run by human\\)', timeoutMs: 60_000 });
  assert.ok(helperAgain.matched, helperAgain.snippet);
  const orchestratorAgain = await harness.coordinator.waitFor(orchestrator.id, { pattern: 'run by human\\)', timeoutMs: 60_000 });
  assert.ok(orchestratorAgain.matched, orchestratorAgain.snippet);
  const helperNotices = (await harness.coordinator.grid(helper)).lines.join('\n').match(/\[system\] watched:/g)?.length;
  assert.equal(helperNotices, 2, "the helper was told of the orchestrator's and the human's commands, not its own");

  const unsubscribed = await mcp.call('subscribe_commands', { child_id: shell, unsubscribe: true });
  assert.equal(structured<{ subscribed: boolean }>(unsubscribed).subscribed, false);
});

test('only an agent can subscribe, and only to a shell pane', async () => {
  const { child_id: shell } = await spawnShell(mcp, { shell: 'bash' }, scratchHome(harness.root));
  const process = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '60'] })).child_id;
  assert.match(failure(await mcp.call('subscribe_commands', { child_id: process })), /is not a shell pane/);
  const asShell = await harness.connect(harness.tokenFor(shell));
  assert.match(failure(await asShell.call('subscribe_commands', { child_id: shell })), /own pane|only an agent pane can subscribe/);
});
