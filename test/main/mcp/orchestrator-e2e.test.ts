/**
 * Runs patterm as an orchestrator would, with no vendor CLI: the user opens
 * the fake agent preset (as the palette does), patterm injects its MCP config
 * and identity, and the "agent" drives everything through its own proxy
 * connection. The test only types into the orchestrator's input and reads
 * screens, like the human at the keyboard.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { startHarness } from './helpers/mcp-harness.js';
import { expectScreen, literal } from './helpers/screen.js';

const harness = await startHarness();

test('an agent launched from a preset orchestrates a sub-agent and a process end to end', async () => {
  const { coordinator, launcher } = harness;
  // The user spawns the orchestrator from the palette: no parent, user-owned.
  const { pane: root, submit } = await launcher.spawnAgent({ preset: 'fake', owner: 'user' });
  assert.equal(submit, null);
  await expectScreen(coordinator, root.id, 'mcp\\| connected, 24 tools');

  /** Types a line into the orchestrator the way the user would, and waits for the tool's answer on its screen. */
  const say = async (line: string, answer: string): Promise<string> => {
    const sent = await launcher.submit(root.id, line, 'user');
    assert.ok(sent.submitted, sent.detail);
    return expectScreen(coordinator, root.id, answer);
  };

  const spawned = await say('/call spawn_agent {"preset":"fake","initial_prompt":"you are kid; report back when asked","name":"kid"}', 'result\\| spawn_agent: spawned kid \\(child_id \\w+\\)');
  const kidId = /child_id (\w+)/.exec(spawned)![1];
  await expectScreen(coordinator, kidId, '^got\\| you are kid; report back when asked$');
  await expectScreen(coordinator, kidId, 'mcp\\| connected, 18 tools');

  // The orchestrator tells the kid to report; the kid's own MCP connection calls report_to_parent.
  await say(`/call send_message_to {"target":"${kidId}","message":"/call report_to_parent {\\"message\\":\\"all tests pass\\"}"}`, 'result\\| send_message_to: message submitted to kid');
  await expectScreen(coordinator, root.id, `^got\\| ${literal('[sub-agent:kid] all tests pass')}$`);

  // The two-level rule holds for the kid's real connection too.
  await say(`/call send_message_to {"target":"${kidId}","message":"/call spawn_agent {\\"preset\\":\\"fake\\",\\"initial_prompt\\":\\"x\\"}"}`, 'result\\| send_message_to');
  await expectScreen(coordinator, kidId, "error\\| spawn_agent: spawn_agent is only available to a session's orchestrator");

  // A process, a scratchpad, a timer.
  const started = await say('/call spawn_process {"argv":["sh","-c","echo build ok; exec sleep 60"],"name":"build","ready_pattern":"build ok","ready_timeout_seconds":60}', 'result\\| spawn_process: started build');
  assert.match(started, /ready: build ok/);
  await say('/call scratchpad_write {"name":"status.md","content":"kid: tests pass\\n"}', 'result\\| scratchpad_write: wrote status.md');
  assert.equal((await harness.mcp.scratchpads.read('status.md')).content, 'kid: tests pass\n');
  await say('/call timer_wait {"seconds":0.5,"label":"recheck"}', 'result\\| timer_wait: timer');
  await expectScreen(coordinator, root.id, `^got\\| ${literal('[system] Your timer [recheck] has completed.')}$`);

  await say('/call list_children {}', `result\\| list_children: 2 children: ${kidId} kid agent`);
  await say(`/call kill {"child_id":"${kidId}"}`, 'result\\| kill: kid exited with code 143 \\(SIGTERM\\)');
  assert.equal(coordinator.info(kidId).process.status, 'killed');
  // The kid's connection went with it; only the orchestrator's remains.
  await eventually(() => harness.mcp.connectionCount === 1, { timeoutMs: 30_000, message: 'the kid\'s MCP connection to close' });
});
