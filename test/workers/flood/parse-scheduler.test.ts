/** The parse scheduler's turn-taking: bounded, first come first served, and never losing a turn. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLOOD_SLOTS_DURING_INPUT, ParseScheduler, type ParseClient } from '../../../src/workers/flood/parse-scheduler.js';
import { FLOOD_SHARE_MS, INPUT_YIELD_MS, InputActivity, YIELD_CYCLE_MS } from '../../../src/shared/input-activity.js';

function client(log: string[], name: string, yieldsToInput = true): ParseClient & { name: string } {
  return { name, yieldsToInput, onTurn: () => log.push(name) };
}

test('at most `slots` clients hold a turn; the rest queue in order and get the turn as it frees', () => {
  const log: string[] = [];
  const scheduler = new ParseScheduler(2);
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => client(log, name));
  assert.equal(scheduler.acquire(a), true);
  assert.equal(scheduler.acquire(b), true);
  assert.equal(scheduler.acquire(c), false);
  assert.equal(scheduler.acquire(d), false);
  assert.equal(scheduler.acquire(c), false, 'asking again does not queue twice');
  assert.equal(scheduler.othersWaiting, true);
  scheduler.release(a);
  assert.deepEqual(log, ['c']);
  scheduler.release(b);
  assert.deepEqual(log, ['c', 'd']);
  assert.equal(scheduler.othersWaiting, false);
});

test('releasing a queued client removes it from the queue; releasing a stranger is harmless', () => {
  const log: string[] = [];
  const scheduler = new ParseScheduler(1);
  const [a, b, c] = ['a', 'b', 'c'].map((name) => client(log, name));
  scheduler.acquire(a);
  scheduler.acquire(b);
  scheduler.acquire(c);
  scheduler.release(b); // b exited while waiting
  scheduler.release(client(log, 'stranger'));
  scheduler.release(a);
  assert.deepEqual(log, ['c']);
  scheduler.release(c);
  assert.equal(scheduler.acquire(a), true, 'the turn is free again');
});

test('after a keystroke, floods get no turn for the yield window, the shown pane still does, and the queue resumes after', async () => {
  const log: string[] = [];
  const activity = new InputActivity();
  const scheduler = new ParseScheduler(2, activity);
  const [flood, other] = ['flood', 'other'].map((name) => client(log, name));
  const shown = client(log, 'shown', false);
  assert.equal(scheduler.acquire(flood), true, 'no keystroke yet: floods parse');
  scheduler.release(flood);
  activity.markInput();
  assert.equal(scheduler.yielding, true);
  assert.equal(scheduler.acquire(flood), false, 'a flood waits while the user types');
  assert.equal(scheduler.acquire(other), false);
  assert.equal(scheduler.acquire(shown), true, 'the shown pane goes ahead of the waiting floods');
  const started = Date.now();
  while (log.length < 1 && Date.now() - started < 2_000) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(Date.now() - started >= INPUT_YIELD_MS - 2, `floods resumed after ${Date.now() - started} ms, before the window closed`);
  assert.deepEqual(log, ['flood'], 'the first waiting flood gets the free slot when the window closes');
  scheduler.release(shown);
  assert.deepEqual(log, ['flood', 'other']);
});

test('an unbroken burst of input cannot starve floods: they get their share of every cycle', () => {
  const activity = new InputActivity();
  const scheduler = new ParseScheduler(1, activity);
  const start = Date.now() - (YIELD_CYCLE_MS - FLOOD_SHARE_MS) - 5; // a burst that began long enough ago to be in the floods' share
  for (let at = start; at <= Date.now(); at += 10) activity.markInput(at);
  assert.equal(scheduler.yielding, false, 'in the floods\' share of the cycle');
  assert.equal(scheduler.acquire(client([], 'flood')), true);
});

test('in the floods\' share of a burst, floods hold one slot and leave the other core free; the rest follow once input stops', async () => {
  assert.equal(FLOOD_SLOTS_DURING_INPUT, 1);
  const log: string[] = [];
  const activity = new InputActivity();
  const scheduler = new ParseScheduler(2, activity);
  const start = Date.now() - (YIELD_CYCLE_MS - FLOOD_SHARE_MS) - 5;
  for (let at = start; at <= Date.now(); at += 10) activity.markInput(at);
  const [first, second] = ['first', 'second'].map((name) => client(log, name));
  const shown = client(log, 'shown', false);
  assert.equal(scheduler.acquire(first), true, 'one flood parses in its share');
  assert.equal(scheduler.acquire(second), false, 'a second flood would take the core the input needs');
  assert.equal(scheduler.acquire(shown), true, 'the shown pane still gets the other slot');
  scheduler.release(shown);
  assert.deepEqual(log, [], 'a freed slot does not go to a flood while input is recent');
  const waited = Date.now();
  while (log.length < 1 && Date.now() - waited < 2_000) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(log, ['second'], 'once input is no longer recent the waiting flood gets the free slot');
  assert.ok(Date.now() - waited >= INPUT_YIELD_MS - 12, `granted after ${Date.now() - waited} ms, before input went stale`);
});

test('while a caller waits on a pane, floods hold one slot; the other follows as soon as the wait ends, or its pane goes', () => {
  const log: string[] = [];
  const scheduler = new ParseScheduler(2, new InputActivity());
  const [first, second, third] = ['first', 'second', 'third'].map((name) => client(log, name));
  const awaited = client(log, 'awaited', false);
  scheduler.setAwaited(awaited, true);
  assert.equal(scheduler.acquire(first), true, 'one flood parses');
  assert.equal(scheduler.acquire(second), false, 'a second flood would take the core the wait needs');
  assert.equal(scheduler.acquire(awaited), true, 'the awaited pane itself always may');
  scheduler.release(awaited);
  assert.deepEqual(log, [], 'its freed slot does not go to a flood while the wait is on');
  scheduler.setAwaited(awaited, false);
  assert.deepEqual(log, ['second'], 'the wait ended: the waiting flood gets the slot at once');

  scheduler.setAwaited(awaited, true);
  scheduler.release(second);
  assert.equal(scheduler.acquire(third), false, 'waiting again: one flood slot');
  scheduler.remove(awaited);
  assert.deepEqual(log, ['second', 'third'], 'the awaited pane went away: its wait no longer holds floods back');
});
