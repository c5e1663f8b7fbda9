/** The run's warning count: one shared word any thread adds to, and a watcher wakes on, without polling. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { WarningCounter } from '../../src/node/warning-counter.js';

test('a watcher hears each change, from this thread and from another', async () => {
  const counter = new WarningCounter();
  const heard: number[] = [];
  let wake: () => void = () => undefined;
  const watch = counter.watch((count) => {
    heard.push(count);
    wake();
  });
  const next = () => new Promise<void>((resolve) => (wake = resolve));
  let arrived = next();
  counter.add();
  await arrived;
  assert.deepEqual(heard, [1]);
  arrived = next();
  const worker = new Worker(`const { workerData } = require('node:worker_threads'); const word = new Int32Array(workerData); Atomics.add(word, 0, 1); Atomics.notify(word, 0);`, {
    eval: true,
    workerData: counter.buffer,
  });
  await arrived;
  await new Promise((resolve) => worker.on('exit', resolve));
  assert.equal(heard.at(-1), 2);
  assert.equal(counter.count, 2);
  watch.dispose();
  counter.add();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(heard.at(-1), 2, 'a disposed watch hears nothing more');
});

test('a pending watch does not keep a thread alive', async () => {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     import(workerData).then(({ WarningCounter }) => { new WarningCounter().watch(() => undefined); });`,
    { eval: true, workerData: new URL('../../src/node/warning-counter.js', import.meta.url).href },
  );
  assert.equal(await new Promise((resolve) => worker.on('exit', resolve)), 0);
});
