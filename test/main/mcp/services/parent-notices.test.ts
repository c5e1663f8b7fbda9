/**
 * Notices to a parent agent wait until it is idle and nobody is typing into
 * it: a child's permission dialog that opens while the user types
 * into the orchestrator is announced after the user's line, never inside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { expectScreen, literal, screenText } from '../helpers/screen.js';

const harness = await startHarness();

test('a notice waits while the user types into the parent, then arrives on its own line', async () => {
  const { pane: root, token } = await harness.orchestrator();
  const mcp = await harness.connect(token);
  const spawned = await mcp.call('spawn_agent', { preset: 'dialog', initial_prompt: 'hello', name: 'kid' });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const childId = structured<{ child_id: string }>(spawned).child_id;

  // The user types without pause (each key once the last one echoed) from before the dialog opens until
  // after: a letter, then a backspace, so the line never grows past the screen's width however long it takes.
  let keys = 0;
  let typing = true;
  const typist = (async () => {
    while (typing) {
      const letter = keys % 2 === 0;
      harness.coordinator.write(root.id, letter ? 'u' : '\x7f', 'user');
      await expectScreen(harness.coordinator, root.id, letter ? '^ready> u$' : '^ready>$');
      keys++;
    }
  })();
  await expectScreen(harness.coordinator, root.id, '^ready> u');
  const asked = await mcp.call('send_input', { child_id: childId, text: 'run true', submit: true });
  assert.equal(asked.isError, undefined, textOf(asked));
  const waiting = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 60_000 });
  assert.equal(structured<{ matched: boolean }>(waiting).matched, true, textOf(waiting));
  const atDialog = keys;
  while (keys < atDialog + 10) await new Promise((resolve) => setImmediate(resolve));
  typing = false;
  await typist;
  assert.doesNotMatch(await screenText(harness.coordinator, root.id), /\[system\]/, 'nothing typed into the parent while the user types');
  harness.coordinator.write(root.id, `${keys % 2 === 1 ? '\x7f' : ''}done\r`, 'user');

  await expectScreen(harness.coordinator, root.id, '^got\\| done$');
  await expectScreen(harness.coordinator, root.id, `^got\\| ${literal('[system] kid is waiting for permission: Bash command true')}`);
});
