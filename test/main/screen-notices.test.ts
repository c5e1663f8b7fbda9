/**
 * Screen-change notices wake the coordinator thread, so a pane's worker sends
 * them only while something there listens for that pane (Coordinator.onScreenDirty).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useCoordinator } from '../helpers/coordinator-fixture.js';
import { frameLines } from '../../src/shared/frame-text.js';

const coordinator = useCoordinator();
/** The ticker's count on screen now, read from the cells: a grid read of a quiet pane would publish its mirror. */
async function tick(paneId: string): Promise<number> {
  return Number(/tick (\d+)/.exec(frameLines(await coordinator.cells(paneId)).join('\n'))?.[1] ?? 0);
}

/** Waits until the ticker has drawn `ticks` more: the screen changed that often, whatever the machine's load. */
async function ticksLater(paneId: string, ticks: number): Promise<void> {
  const target = (await tick(paneId)) + ticks;
  await eventually(async () => (await tick(paneId)) >= target, { timeoutMs: 10_000, message: `tick ${target}` });
}

const TICKER = ['sh', '-c', 'i=0; while :; do i=$((i+1)); printf "\\rtick %d " $i; sleep 0.04; done'];

test('a ticking pane notifies only while someone listens, and a listener hears every change after it subscribed', async () => {
  const pane = await coordinator.spawn({ argv: TICKER, kind: 'process' });
  await coordinator.waitFor(pane.id, { pattern: 'tick 3 ', timeoutMs: 10_000 });
  await ticksLater(pane.id, 5);
  assert.equal(coordinator.screenNoticeCount(pane.id), 0, 'nobody listened, so nothing was sent');

  const versions: number[] = [];
  const subscription = coordinator.onScreenDirty(pane.id, (version) => versions.push(version));
  await eventually(() => versions.length >= 5, { timeoutMs: 10_000, message: 'five notices' });
  for (let i = 1; i < versions.length; i++) assert.ok(versions[i] > versions[i - 1], `versions rise: ${versions.join(', ')}`);
  const grid = await coordinator.grid(pane.id);
  assert.ok(grid.screenVersion >= versions[versions.length - 1], 'a notice never runs ahead of the screen');

  subscription.dispose();
  await ticksLater(pane.id, 3); // a notice already on its way may still land
  const afterUnsubscribe = coordinator.screenNoticeCount(pane.id);
  await ticksLater(pane.id, 10);
  assert.equal(coordinator.screenNoticeCount(pane.id), afterUnsubscribe, 'no notices once the last listener left');

  const again: number[] = [];
  const second = coordinator.onScreenDirty(pane.id, (version) => again.push(version));
  await eventually(() => again.length >= 2, { timeoutMs: 10_000, message: 'notices to resume' });
  assert.ok(again[0] > versions[versions.length - 1], 'the new listener hears changes made after it subscribed');
  second.dispose();
});

test('listening on a pane that does not exist is harmless', () => {
  const subscription = coordinator.onScreenDirty('no-such-pane', () => assert.fail('no notices for a missing pane'));
  subscription.dispose();
});
