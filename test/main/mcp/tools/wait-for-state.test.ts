/**
 * Agent states end to end, through the real `patterm mcp-stdio`
 * proxy and the SDK client: a scripted CLI (fake-agent/dialog-agent.ts) asks
 * for permission to run a command; the orchestrator sees waiting_permission in
 * wait_for_state, list_children and read_output, hears of it with a [system]
 * notice, answers with send_input, and the command really runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { orchestratorSession, spawnDialogAgent, waitState, type StateResult } from '../helpers/state-calls.js';
import { expectScreen, literal, screenText } from '../helpers/screen.js';

const harness = await startHarness();

const session = () => orchestratorSession(harness);

test('a permission dialog: waiting_permission everywhere, a [system] notice to the parent, answer approve_once runs the command', async () => {
  const { root, mcp } = await session();
  const file = join(harness.projectDir, 'approved.txt');
  const childId = await spawnDialogAgent(mcp, `run touch ${file}`, 'asker');

  const waiting = await waitState(mcp, childId, ['waiting_permission']);
  assert.equal(waiting.matched, true);
  assert.equal(waiting.state, 'waiting_permission');
  assert.equal(waiting.state_source, 'pattern: dialogs[0] (permission)');
  assert.match(waiting.dialog ?? '', new RegExp(`touch ${literal(file)}[\\s\\S]*Do you want to proceed\\?`));
  assert.ok(!Number.isNaN(Date.parse(waiting.state_since)));

  const listed = structured<{ children: (StateResult & { child_id: string })[] }>(await mcp.call('list_children'));
  assert.equal(listed.children.find((child) => child.child_id === childId)?.state, 'waiting_permission');
  const read = structured<StateResult>(await mcp.call('read_output', { child_id: childId }));
  assert.equal(read.state, 'waiting_permission');
  assert.equal(harness.coordinator.info(childId).waitingForAnswer, true, 'the tree marks it as needing an answer');

  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] asker is waiting for permission: Bash command touch')}`);
  assert.equal(existsSync(file), false, 'nothing ran before the approval');

  const answered = await mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  assert.equal(answered.isError, undefined, textOf(answered));
  await expectScreen(harness.coordinator, childId, `ran: touch ${literal(file)} \\(exit 0\\)`);
  assert.equal(existsSync(file), true);
  const idle = await waitState(mcp, childId, ['idle']);
  assert.equal(idle.state_source, 'pattern: ready_signal.pattern');
  assert.equal(harness.coordinator.info(childId).waitingForAnswer, false);
  // Told once: the one notice for the one dialog.
  assert.equal((await screenText(harness.coordinator, root.id)).split('asker is waiting for permission').length - 1, 1);
});

test('a question is waiting_input; dialog words printed in the conversation do not count', async () => {
  const { root, mcp } = await session();
  const childId = await spawnDialogAgent(mcp, 'say  Do you want to proceed?', 'talker');
  await expectScreen(harness.coordinator, childId, '^ Do you want to proceed\\?$');
  const calm = await waitState(mcp, childId, ['idle']);
  assert.equal(calm.matched, true, JSON.stringify(calm));

  await mcp.call('send_message_to', { target: childId, message: 'x' }); // a normal turn, to show busy then idle
  const asked = await mcp.call('send_input', { child_id: childId, text: 'ask Which branch?', submit: true });
  assert.equal(asked.isError, undefined, textOf(asked));
  const question = await waitState(mcp, childId, ['waiting_input', 'waiting_permission']);
  assert.equal(question.state, 'waiting_input');
  assert.equal(question.state_source, 'pattern: dialogs[1] (question)');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] talker is asking a question: Question: Which branch?')}`);

  const refused = await mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /answer "approve_once" needs talker .* to be waiting for permission, but it is waiting_input \(pattern: dialogs\[1\] \(question\)\)/);
  await mcp.call('send_input', { child_id: childId, text: 'main', submit: true });
  await expectScreen(harness.coordinator, childId, '^answer: main$');
  assert.equal((await waitState(mcp, childId, ['idle'])).matched, true);
});

test('wait_for_state times out with the state it found, ends at once on exit, and names a bad argument', async () => {
  const { mcp } = await session();
  const childId = await spawnDialogAgent(mcp, 'hello', 'sleeper');
  const timedOut = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 300 });
  assert.equal(structured<StateResult>(timedOut).matched, false);
  assert.match(textOf(timedOut), /^not in waiting_permission after \d+ ms: sleeper is (idle|busy)/);

  const exiting = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sh', '-c', 'sleep 0.3'], notify_on_exit: false })).child_id;
  const exited = await waitState(mcp, exiting, ['waiting_input']);
  assert.equal(exited.matched, false);
  assert.equal(exited.state, 'exited');
  assert.equal(exited.state_source, 'process: code 0');

  const bad = await mcp.call('wait_for_state', { child_id: childId, states: ['asleep'], timeout_ms: 10 });
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /states\.0: each state must be one of starting, busy, waiting_permission, waiting_input, idle, exited; received "asleep"/);
  const tooLong = await mcp.call('wait_for_state', { child_id: childId, states: ['idle'], timeout_ms: 3_600_000 });
  assert.match(textOf(tooLong), /timeout_ms must be at most 1800000/);
});

test('a process: busy while it prints, idle by quiet time with no further output, busy while it reports OSC 9;4 progress', async () => {
  const { mcp } = await session();
  const script = 'echo starting; read a; printf "\\033]9;4;3;\\007working\\n"; read b; printf "\\033]9;4;0;\\007done\\n"; exec sleep 600';
  const childId = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sh', '-c', script], name: 'progressor' })).child_id;
  const quiet = await waitState(mcp, childId, ['idle']);
  assert.match(quiet.state_source, /^quiet: no output for \d+ ms \(idle threshold 1000 ms\)$/);
  await mcp.call('send_input', { child_id: childId, text: 'go', submit: true });
  await expectScreen(harness.coordinator, childId, '^working$');
  const working = await waitState(mcp, childId, ['busy']);
  assert.equal(working.state_source, 'signal: OSC 9;4 progress');
  // Still busy once quiet: the progress, not the output, says so.
  const held = await mcp.call('wait_for_state', { child_id: childId, states: ['idle'], timeout_ms: 1500 });
  assert.equal(structured<StateResult>(held).matched, false, textOf(held));
  await mcp.call('send_input', { child_id: childId, text: 'go', submit: true });
  await expectScreen(harness.coordinator, childId, '^done$');
  assert.match((await waitState(mcp, childId, ['idle'])).state_source, /^quiet: /);
});
