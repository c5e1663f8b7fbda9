/** Jobs for one key run one at a time, in arrival order; other keys do not wait; a failure does not block the queue. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedLock } from '../../src/node/keyed-lock.js';

/** A job that logs its start and end around a wait the test controls. */
function gatedJob(log: string[], name: string): { job: () => Promise<string>; open: () => void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    job: async () => {
      log.push(`${name} start`);
      await gate;
      log.push(`${name} end`);
      return name;
    },
    open: () => open(),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('jobs for one key never overlap and run in the order they came; another key runs meanwhile', async () => {
  const lock = new KeyedLock<string>();
  const log: string[] = [];
  const a1 = gatedJob(log, 'a1');
  const a2 = gatedJob(log, 'a2');
  const b1 = gatedJob(log, 'b1');
  const results = [lock.run('a', a1.job), lock.run('a', a2.job), lock.run('b', b1.job)];
  await turn();
  assert.deepEqual(log, ['a1 start', 'b1 start'], 'a2 waits for a1; b1 does not');
  b1.open();
  a2.open(); // opened early: it still must not start before a1 ends
  await turn();
  assert.deepEqual(log, ['a1 start', 'b1 start', 'b1 end']);
  a1.open();
  assert.deepEqual(await Promise.all(results), ['a1', 'a2', 'b1']);
  assert.deepEqual(log, ['a1 start', 'b1 start', 'b1 end', 'a1 end', 'a2 start', 'a2 end']);
});

test('a job that fails rejects its own caller only, and the next job for the key still runs', async () => {
  const lock = new KeyedLock<number>();
  const failing = lock.run(1, async () => {
    throw new Error('first failed');
  });
  const next = lock.run(1, async () => 'second ran');
  await assert.rejects(failing, /first failed/);
  assert.equal(await next, 'second ran');
});

test('a key is forgotten once its queue drains, so the lock does not grow with every key it has seen', async () => {
  const lock = new KeyedLock<number>();
  await Promise.all(Array.from({ length: 100 }, (_, key) => lock.run(key, async () => key)));
  await turn();
  assert.equal((lock as unknown as { tails: Map<number, unknown> }).tails.size, 0);
});
