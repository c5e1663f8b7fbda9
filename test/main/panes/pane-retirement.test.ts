/**
 * Exited panes keep their workers for a while, but never more than
 * maxExitedWorkers of them: past it the oldest are retired at once, so an
 * orchestrator running short commands in a loop does not hold a worker for
 * each (MAX_EXITED_WORKERS).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';

const coordinator = useCoordinator();
coordinator.retirement.afterExitMs = 60_000; // only the limit retires anything in this file
coordinator.retirement.maxExitedWorkers = 2;

/** Every retirement of these panes that was started has finished: a worker read waits for one in flight. */
const settleRetirements = (ids: string[]) => Promise.all(ids.map((id) => coordinator.history(id, 0, 1)));

const quickExit = (label: string) => ['bash', '--norc', '--noprofile', '-c', `echo ${label} done`];

test('past the limit the oldest exited workers are retired at once, and they still answer', async () => {
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) {
    const pane = await coordinator.spawn({ argv: quickExit(`run-${index}`), kind: 'process', name: `run-${index}` });
    await coordinator.exitPromise(pane.id);
    ids.push(pane.id);
  }
  await eventually(() => ids.slice(0, 3).every((id) => coordinator.workerRetired(id)), { timeoutMs: 10_000, message: 'the three oldest exited panes to be retired' });
  // Which panes go is decided at each exit, so by now every decision is made; a read waits
  // for a retirement still in flight, so after it the two newest are live, not merely late.
  await settleRetirements(ids.slice(3));
  assert.deepEqual(ids.map((id) => coordinator.workerRetired(id)), [true, true, true, false, false]);
  const grid = await coordinator.grid(ids[0]);
  assert.ok(grid.lines.some((line) => line.includes('run-0 done')), 'a retired pane answers from what its worker left');
});

test('a pane that cannot be retired yet is passed over for the next oldest', async () => {
  const focused = await coordinator.spawn({ argv: quickExit('watched'), kind: 'process', name: 'watched' });
  await coordinator.exitPromise(focused.id);
  const shown = new MessageChannel();
  coordinator.attachFrameSink(focused.id, shown.port1);
  try {
    const later: string[] = [];
    for (let index = 0; index < 3; index++) {
      const pane = await coordinator.spawn({ argv: quickExit(`later-${index}`), kind: 'process', name: `later-${index}` });
      await coordinator.exitPromise(pane.id);
      later.push(pane.id);
    }
    await eventually(() => coordinator.workerRetired(later[0]) && coordinator.workerRetired(later[1]), { timeoutMs: 10_000, message: 'the two oldest unwatched panes to be retired' });
    await settleRetirements([focused.id, later[2]]);
    // The shown pane is the oldest, so it alone counts past the limit: the two after it go in its place.
    assert.deepEqual([focused.id, ...later].map((id) => coordinator.workerRetired(id)), [false, true, true, false]);
  } finally {
    shown.port2.close();
    coordinator.clearFrameSink();
  }
});

test('closing an exited pane lets it go at once: its timer no longer holds it, its worker or its output lane', async () => {
  // Asked of this pane alone: the other tests' panes may still be retiring meanwhile.
  const pane = await coordinator.spawn({ argv: quickExit('closed'), kind: 'process', name: 'closed' });
  await coordinator.exitPromise(pane.id);
  assert.ok(coordinator.retirement.holds(pane.id), 'the exited pane waits to be retired');
  await coordinator.close(pane.id);
  assert.equal(coordinator.retirement.holds(pane.id), false, 'closed, it is held no longer');
});
