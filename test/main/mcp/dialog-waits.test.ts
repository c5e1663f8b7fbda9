/**
 * A dialog that follows a dialog is a new wait, end to end through the real
 * `patterm mcp-stdio` proxy and the SDK client, with a scripted CLI
 * (fake-agent/dialog-agent.ts) that draws its second dialog straight over the
 * first, as opencode does: each dialog has its own wait (state_since, text)
 * and its own [system] notice to the parent; a spinner, a timer and a
 * countdown redrawing inside a dialog, or an answer typed into it, are the
 * same wait and bring no second notice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, textOf, type Connection } from './helpers/mcp-harness.js';
import { orchestratorSession, spawnDialogAgent, STATE_WAIT_MS, waitState } from './helpers/state-calls.js';
import { expectScreen, systemNotices } from './helpers/screen.js';
import { eventually } from '../../helpers/coordinator-fixture.js';

const harness = await startHarness();

const session = () => orchestratorSession(harness);

async function approve(mcp: Connection, childId: string): Promise<void> {
  const answered = await mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  assert.equal(answered.isError, undefined, textOf(answered));
}

/** The notices `rootId` has had about `name` waiting for permission, once there are at least `count`. */
async function permissionNotices(rootId: string, name: string, count: number): Promise<string[]> {
  const told = async () => (await systemNotices(harness.coordinator, rootId)).filter((notice) => notice.startsWith(`[system] ${name} is waiting for permission: `));
  return eventually(async () => ((await told()).length >= count ? told() : null), { timeoutMs: STATE_WAIT_MS, message: `${count} notice(s) about ${name}` });
}

const files = (...names: string[]) => names.map((name) => join(harness.projectDir, name));

test('two dialogs in a row, the second drawn over the first: two waits and two notices, each of its own dialog, each answered after wait_for_state', async () => {
  const { root: { id: root }, mcp } = await session();
  const [first, second] = files('first.txt', 'second.txt');
  const childId = await spawnDialogAgent(mcp, `chain touch ${first} ;; touch ${second}`, 'chainer');

  const one = await waitState(mcp, childId, ['waiting_permission']);
  assert.equal(one.matched, true, JSON.stringify(one));
  assert.match(one.dialog ?? '', new RegExp(`touch ${first}`));
  assert.match((await permissionNotices(root, 'chainer', 1))[0], new RegExp(`Bash command touch ${first} Do you want to proceed\\?`));
  await approve(mcp, childId);

  const two = await waitState(mcp, childId, ['waiting_permission']);
  assert.equal(two.matched, true, JSON.stringify(two));
  assert.match(two.dialog ?? '', new RegExp(`touch ${second}`), 'the wait is for the second dialog');
  assert.doesNotMatch(two.dialog ?? '', new RegExp(`touch ${first}`));
  assert.ok(Date.parse(two.state_since) > Date.parse(one.state_since), `a new wait: ${one.state_since}, then ${two.state_since}`);
  assert.equal(existsSync(first), true, 'the first command ran');
  const notices = await permissionNotices(root, 'chainer', 2);
  assert.match(notices[1], new RegExp(`Bash command touch ${second} Do you want to proceed\\?`));
  await approve(mcp, childId);

  assert.equal((await waitState(mcp, childId, ['idle'])).matched, true);
  assert.equal(existsSync(second), true, 'the second command ran');
  assert.equal((await permissionNotices(root, 'chainer', 2)).length, 2, 'one notice per dialog');
});

test('a dialog whose spinner, timer and countdown redraw is one wait with one notice; the dialog after it is the next', async () => {
  const { root: { id: root }, mcp } = await session();
  const [first, second] = files('ticked-first.txt', 'ticked-second.txt');
  const childId = await spawnDialogAgent(mcp, `tick chain touch ${first} ;; touch ${second}`, 'ticker');

  const one = await waitState(mcp, childId, ['waiting_permission']);
  assert.equal(one.matched, true, JSON.stringify(one));
  // Each read while it ticks, some seconds of redraws apart, is the same wait, its text the latest drawn.
  const texts = new Set<string>();
  for (const seconds of [1, 2, 3]) {
    await expectScreen(harness.coordinator, childId, `asked ${seconds}s ago · 9m ${60 - seconds}s left`, STATE_WAIT_MS);
    const now = await waitState(mcp, childId, ['waiting_permission'], 0);
    assert.equal(now.state_since, one.state_since, `the same wait after ${seconds} s of redraws: ${JSON.stringify(now)}`);
    texts.add(now.dialog ?? '');
  }
  assert.ok(texts.size >= 2, 'the dialog text follows the redraws');
  assert.equal((await permissionNotices(root, 'ticker', 1)).length, 1);
  await approve(mcp, childId);

  const two = await waitState(mcp, childId, ['waiting_permission']);
  assert.match(two.dialog ?? '', new RegExp(`touch ${second}`));
  assert.notEqual(two.state_since, one.state_since);
  // Notices are typed in order: a second one about the first dialog would come before this one.
  const notices = await permissionNotices(root, 'ticker', 2);
  assert.equal(notices.length, 2, notices.join('\n'));
  assert.match(notices[0], new RegExp(`touch ${first}`));
  assert.match(notices[1], new RegExp(`touch ${second}`));
  await approve(mcp, childId);
  assert.equal((await waitState(mcp, childId, ['idle'])).matched, true);
  assert.equal(existsSync(second), true);
});

test('an answer typed into a question is the same wait, with no second notice', async () => {
  const { root: { id: root }, mcp } = await session();
  const childId = await spawnDialogAgent(mcp, 'ask Which colour?', 'asker');
  const asked = await waitState(mcp, childId, ['waiting_input']);
  assert.equal(asked.matched, true, JSON.stringify(asked));
  await eventually(async () => (await systemNotices(harness.coordinator, root)).some((notice) => notice.startsWith('[system] asker is asking a question: Question: Which colour?')), { timeoutMs: STATE_WAIT_MS, message: 'the notice of the question' });
  for (const typed of ['b', 'lue and gre', 'en']) {
    await mcp.call('send_input', { child_id: childId, text: typed });
    await expectScreen(harness.coordinator, childId, `^> .*${typed}$`);
    const now = await waitState(mcp, childId, ['waiting_input'], 0);
    assert.equal(now.state_since, asked.state_since, `the same wait with ${JSON.stringify(now.dialog)}`);
  }
  await mcp.call('send_input', { child_id: childId, kind: 'key', key: 'enter' });
  await expectScreen(harness.coordinator, childId, '^answer: blue and green$');
  assert.equal((await waitState(mcp, childId, ['idle'])).matched, true);
  assert.equal((await systemNotices(harness.coordinator, root)).filter((notice) => notice.includes('asker')).length, 1);
});
