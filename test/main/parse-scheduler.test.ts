/** The parse scheduler's turn-taking: bounded, first come first served, and never losing a turn. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParseScheduler, type ParseClient } from '../../src/main/parse-scheduler.js';

function client(log: string[], name: string): ParseClient & { name: string } {
  return { name, onTurn: () => log.push(name) };
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
