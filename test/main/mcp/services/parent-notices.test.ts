/**
 * Notices to a parent agent wait until it is idle and nobody is typing into
 * it: a child's permission dialog that opens while the user types
 * into the orchestrator is announced after the user's line, never inside it;
 * a dialog answered meanwhile is not announced at all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { expectScreen, literal, screenText, systemNotices } from '../helpers/screen.js';

const harness = await startHarness();

/**
 * The user types into `paneId` without pause, each key once the last one
 * echoed: a letter, then a backspace, so the line never grows past the
 * screen's width however long it takes. `finish` stops with the line empty.
 */
function startTyping(paneId: string) {
  let keys = 0;
  let typing = true;
  const typist = (async () => {
    while (typing) {
      const letter = keys % 2 === 0;
      harness.coordinator.write(paneId, letter ? 'u' : '\x7f', 'user');
      await expectScreen(harness.coordinator, paneId, letter ? '^ready> u$' : '^ready>$');
      keys++;
    }
  })();
  return {
    keys: () => keys,
    async finish(): Promise<void> {
      typing = false;
      await typist;
      if (keys % 2 === 1) harness.coordinator.write(paneId, '\x7f', 'user');
    },
  };
}

test('a notice waits while the user types into the parent, then arrives on its own line', async () => {
  const { pane: root, token } = await harness.orchestrator();
  const mcp = await harness.connect(token);
  const spawned = await mcp.call('spawn_agent', { preset: 'dialog', initial_prompt: 'hello', name: 'kid' });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const childId = structured<{ child_id: string }>(spawned).child_id;

  // The user types without pause from before the dialog opens until after.
  const typist = startTyping(root.id);
  await expectScreen(harness.coordinator, root.id, '^ready> u');
  const asked = await mcp.call('send_input', { child_id: childId, text: 'run true', submit: true });
  assert.equal(asked.isError, undefined, textOf(asked));
  const waiting = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 60_000 });
  assert.equal(structured<{ matched: boolean }>(waiting).matched, true, textOf(waiting));
  const atDialog = typist.keys();
  while (typist.keys() < atDialog + 10) await new Promise((resolve) => setImmediate(resolve));
  await typist.finish();
  assert.doesNotMatch(await screenText(harness.coordinator, root.id), /\[system\]/, 'nothing typed into the parent while the user types');
  harness.coordinator.write(root.id, 'done\r', 'user');

  await expectScreen(harness.coordinator, root.id, '^got\\| done$');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] kid is waiting for permission: Bash command true')}`);
});

test('a dialog answered before the parent was free is never told; the dialog that replaced it is, once', async () => {
  const { pane: root, token } = await harness.orchestrator();
  const mcp = await harness.connect(token);
  const [first, second] = ['first', 'second'].map((name) => join(harness.projectDir, `${name}.txt`));
  const spawned = await mcp.call('spawn_agent', { preset: 'dialog', initial_prompt: 'hello', name: 'chainer' });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const childId = structured<{ child_id: string }>(spawned).child_id;

  // The user types into the parent while the child asks twice and the first dialog is answered.
  const typist = startTyping(root.id);
  await expectScreen(harness.coordinator, root.id, '^ready> u');
  await mcp.call('send_input', { child_id: childId, text: `chain touch ${first} ;; touch ${second}`, submit: true });
  const one = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 60_000 });
  assert.match(structured<{ dialog?: string }>(one).dialog ?? '', new RegExp(`touch ${literal(first)}`), textOf(one));
  const answered = await mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  assert.equal(answered.isError, undefined, textOf(answered));
  const two = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 60_000 });
  assert.match(structured<{ dialog?: string }>(two).dialog ?? '', new RegExp(`touch ${literal(second)}`), textOf(two));
  await typist.finish();
  harness.coordinator.write(root.id, 'done\r', 'user');

  await expectScreen(harness.coordinator, root.id, '^got\\| done$');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal(`[system] chainer is waiting for permission: Bash command touch ${second}`)}`);
  const told = (await systemNotices(harness.coordinator, root.id)).filter((notice) => notice.includes('chainer'));
  assert.equal(told.length, 1, `only the dialog still up is told:\n${told.join('\n')}`);
  await mcp.call('send_input', { child_id: childId, answer: 'deny' });
});
