/**
 * InputActivity: when the user or an orchestrator last asked for something,
 * as every thread sees it, and how long floods hold off for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLOOD_SHARE_MS, INPUT_BURST_GAP_MS, INPUT_YIELD_MS, InputActivity, YIELD_CYCLE_MS } from '../../src/shared/input-activity.js';

const T = 1_000_000;

test('InputActivity: bursts, another thread\'s view, and a clock that stepped back never making a stale window', () => {
  const activity = new InputActivity();
  assert.equal(activity.sinceLastInput(), Infinity, 'never typed');
  activity.markInput(1_000_000);
  assert.equal(activity.sinceLastInput(1_000_010), 10);
  assert.equal(activity.sinceLastInput(999_000), Infinity);
  const seen = new InputActivity(activity.buffer);
  assert.equal(seen.sinceLastInput(1_000_020), 20, 'another view of the same buffer (another thread) sees the keystroke');
  activity.markInput(1_000_000 + INPUT_BURST_GAP_MS - 1);
  assert.equal(activity.sinceBurstStart(1_000_100), 100, 'inputs closer than the gap are one burst');
  activity.markInput(1_000_200);
  assert.equal(activity.sinceBurstStart(1_000_210), 10, 'a pause starts a new burst');
});

test('floods hold off for INPUT_YIELD_MS after each input, and never when nobody typed', () => {
  const activity = new InputActivity();
  assert.equal(activity.floodHoldMs(T), 0, 'never typed');
  activity.markInput(T);
  assert.equal(activity.floodHoldMs(T), INPUT_YIELD_MS);
  assert.equal(activity.floodHoldMs(T + 10), INPUT_YIELD_MS - 10);
  assert.equal(activity.floodHoldMs(T + INPUT_YIELD_MS), 0, 'the window has closed');
  assert.equal(activity.floodHoldMs(T - 5_000), 0, 'a clock that stepped back makes no window');
});

test('in an unbroken burst, floods hold off until their share of the cycle, then run through it', () => {
  const activity = new InputActivity();
  let next = T;
  const keys = (until: number) => {
    for (; next <= until; next += 10) activity.markInput(next);
  };
  const shareStarts = T + YIELD_CYCLE_MS - FLOOD_SHARE_MS;
  keys(T + 100);
  assert.equal(activity.floodHoldMs(T + 100), INPUT_YIELD_MS, 'early in the cycle: the whole window');
  keys(shareStarts - 10);
  assert.equal(activity.floodHoldMs(shareStarts - 10), 10, 'only until the floods\' share begins');
  keys(shareStarts + 10);
  assert.equal(activity.floodHoldMs(shareStarts + 10), 0, 'inside the floods\' share');
  keys(T + YIELD_CYCLE_MS + 20);
  assert.equal(activity.floodHoldMs(T + YIELD_CYCLE_MS + 20), INPUT_YIELD_MS, 'the next cycle holds again');
});
