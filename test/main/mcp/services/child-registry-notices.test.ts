/**
 * Which waits a parent is told of (child-registry.ts), with the coordinator,
 * the states and the notices faked so each turn can be set up exactly: one
 * notice per wait; a wait that gets its `since` back after its dialog was
 * missing from a read is not told twice, and is told after all when its
 * notice was dropped in that moment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Coordinator } from '../../../../src/main/coordinator.js';
import type { AgentStateTracker, StateChange } from '../../../../src/main/agents/agent-state-tracker.js';
import type { ParentNotices, StillTrue } from '../../../../src/main/mcp/services/parent-notices.js';
import { ChildRegistry } from '../../../../src/main/mcp/services/child-registry.js';
import type { AgentState } from '../../../../src/shared/agent-state.js';

const waiting = (since: number, text = 'Allow rm?'): AgentState => ({ state: 'waiting_permission', source: { kind: 'pattern', detail: 'dialogs[0] (permission)' }, since, dialog: { index: 0, kind: 'permission', text } });
const busy = (since: number): AgentState => ({ state: 'busy', source: { kind: 'quiet', detail: 'output 0 ms ago' }, since });

function world() {
  const panes: Record<string, { name: string; kind: string; parentId: string | null; process: { status: string } }> = {
    root: { name: 'orch', kind: 'agent', parentId: null, process: { status: 'running' } },
    kid: { name: 'kid', kind: 'agent', parentId: 'root', process: { status: 'running' } },
  };
  const coordinator = { has: (id: string) => id in panes, info: (id: string) => panes[id], onPaneExited: () => ({ dispose() {} }) } as unknown as Coordinator;
  let listener: (change: StateChange) => void = () => {};
  let now: AgentState = busy(0);
  const states = {
    onChange: (fn: (change: StateChange) => void) => ((listener = fn), { dispose() {} }),
    peek: () => now,
    current: async () => now,
  } as unknown as AgentStateTracker;
  const told: { text: string; stillTrue: StillTrue; typed: (typed: boolean) => void }[] = [];
  const notices = { tell: (_parentId: string, text: string, stillTrue: StillTrue) => new Promise<boolean>((typed) => told.push({ text, stillTrue, typed })) } as unknown as ParentNotices;
  const registry = new ChildRegistry(coordinator, notices, states);
  const change = (state: AgentState) => {
    const previous = now.state;
    now = state;
    listener({ paneId: 'kid', state, previous });
  };
  return { registry, told, change, set: (state: AgentState) => (now = state) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('one notice per wait; a new dialog is a new wait and a new notice', async () => {
  const { registry, told, change } = world();
  change(waiting(100, 'Allow rm a?'));
  assert.equal(told.length, 1);
  assert.equal(told[0].text, 'kid is waiting for permission: Allow rm a?');
  change(busy(200));
  change(waiting(100, 'Allow rm a?')); // missing from a read, back with its wait
  assert.equal(told.length, 1, 'the same wait is not told twice');
  assert.equal(await told[0].stillTrue(), true);
  change(waiting(300, 'Allow rm b?'));
  assert.equal(told.length, 2);
  assert.equal(told[1].text, 'kid is waiting for permission: Allow rm b?');
  assert.equal(await told[0].stillTrue(), false, 'the first notice is no longer true');
  registry.dispose();
});

test('a notice dropped while its dialog was missing from a read is told after all once the dialog is back', async () => {
  const { registry, told, change, set } = world();
  change(waiting(100));
  set(busy(200)); // the last check before typing lands on the read without the dialog
  assert.equal(await told[0].stillTrue(), false);
  change(waiting(100)); // back, with its wait, before the drop is known
  assert.equal(told.length, 1);
  told[0].typed(false);
  await settle();
  assert.equal(told.length, 2, 'told after all');
  assert.equal(await told[1].stillTrue(), true);
  told[1].typed(true);
  await settle();
  change(busy(400));
  change(waiting(100));
  assert.equal(told.length, 2, 'and only once');
  // A dropped notice for a wait that is over stays dropped.
  change(waiting(500));
  set(busy(600));
  told[2].typed(false);
  await settle();
  assert.equal(told.length, 3);
  registry.dispose();
});
