/**
 * InputPark: a flood nobody watches sleeps between slices while input is
 * recent, and a wake (the pane asking its worker something) ends the sleep
 * for the rest of the batch. The sleeping side runs in a real second thread:
 * with its clock frozen inside the input's window, only a wake can end it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { InputActivity, INPUT_YIELD_MS } from '../../../src/shared/input-activity.js';
import { WorkerWake } from '../../../src/shared/worker-wake.js';
import { InputPark, PARK_SLICE_BYTES } from '../../../src/workers/flood/input-park.js';

const T = 1_000_000;
const frozenInsideTheWindow = () => T + 1;

test('output that is not an unwatched flood is parsed whole and never sleeps', () => {
  const activity = new InputActivity();
  activity.markInput(T);
  const park = new InputPark(activity, new WorkerWake(), frozenInsideTheWindow);
  park.onBatch(false);
  assert.equal(park.sliceBytes, Infinity);
  park.pause(); // would never return if it slept: the clock is frozen inside the window
  park.onBatch(true);
  assert.equal(park.sliceBytes, PARK_SLICE_BYTES);
});

test('an unwatched flood sleeps until floods may run again', () => {
  const activity = new InputActivity();
  const park = new InputPark(activity, new WorkerWake());
  park.onBatch(true);
  park.pause(); // no input: at once
  activity.markInput();
  park.pause();
  assert.equal(activity.floodHoldMs(), 0, 'woke only once the input\'s window had closed');
  assert.ok(INPUT_YIELD_MS > 0);
});

test('a wake that came before the sleep ends it at once', () => {
  const activity = new InputActivity();
  activity.markInput(T);
  const wake = new WorkerWake();
  const park = new InputPark(activity, wake, frozenInsideTheWindow);
  park.onBatch(true);
  wake.wake();
  park.pause();
  park.pause(); // and the batch is parsed awake from then on
});

const SLEEPER = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(workerData.parkUrl).then(async ({ InputPark }) => {
    const { InputActivity } = await import(workerData.activityUrl);
    const { WorkerWake } = await import(workerData.wakeUrl);
    const park = new InputPark(new InputActivity(workerData.activity), new WorkerWake(workerData.wake), () => workerData.now);
    park.onBatch(true);
    parentPort.postMessage('sleeping');
    park.pause();
    park.pause();
    parentPort.postMessage('awake for the rest of the batch');
    park.onBatch(true);
    parentPort.postMessage('sleeping again');
    park.pause();
    parentPort.postMessage('woken again');
  });
`;

test('across threads, a wake ends the sleep for the rest of the batch, and the next batch sleeps again', { timeout: 30_000 }, async () => {
  const activity = new InputActivity();
  activity.markInput(T);
  const wake = new WorkerWake();
  const url = (path: string) => new URL(path, import.meta.url).href;
  const worker = new Worker(SLEEPER, {
    eval: true,
    workerData: {
      parkUrl: url('../../../src/workers/flood/input-park.js'),
      activityUrl: url('../../../src/shared/input-activity.js'),
      wakeUrl: url('../../../src/shared/worker-wake.js'),
      activity: activity.buffer,
      wake: wake.buffer,
      now: T + 1,
    },
  });
  const messages: string[] = [];
  const next = async () => {
    const [message] = (await once(worker, 'message')) as [string];
    messages.push(message);
    return message;
  };
  try {
    assert.equal(await next(), 'sleeping');
    wake.wake();
    assert.equal(await next(), 'awake for the rest of the batch');
    assert.equal(await next(), 'sleeping again');
    wake.wake();
    assert.equal(await next(), 'woken again');
  } finally {
    await worker.terminate();
  }
});
