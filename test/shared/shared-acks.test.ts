/** shared-acks.ts: parsed-byte counts in shared memory, and the handshake that never loses an ack. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { SharedAcks } from '../../src/shared/shared-acks.js';

test('in-flight bytes stay exact when the counts wrap past 2^32', () => {
  const acks = new SharedAcks(SharedAcks.allocate());
  let delivered = 0;
  const deliver = (bytes: number) => (delivered = (delivered + bytes) | 0);
  for (let i = 0; i < 70; i++) {
    deliver(64 * 1024 * 1024); // 70 x 64 MiB: past 2^32
    acks.add(64 * 1024 * 1024 - 5);
    assert.equal(acks.inFlight(delivered), 5);
    acks.add(5);
  }
  deliver(3);
  assert.equal(acks.inFlight(delivered), 3);
  acks.settle(delivered);
  assert.equal(acks.inFlight(delivered), 0);
});

test('a message comes only while the host asks for one', () => {
  const acks = new SharedAcks(SharedAcks.allocate());
  assert.equal(acks.add(10), false);
  acks.setWanted(true);
  assert.equal(acks.add(10), true);
  acks.setWanted(false);
  assert.equal(acks.add(10), false);
  assert.equal(acks.parsed(), 30);
});

/**
 * A real second thread parses while this one decides to wait: after asking
 * for messages, this side either sees every byte counted or gets a message.
 * Were the order of either side's two steps swapped, some round would wait
 * for a message that never comes, and the test would time out.
 */
test('across threads, a host that starts waiting never misses the last ack', { timeout: 60_000 }, async () => {
  const buffer = SharedAcks.allocate();
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const cells = new Int32Array(workerData);
     parentPort.on('message', (sizes) => {
       for (const bytes of sizes) {
         for (let spin = Math.random() * 2000; spin > 0; spin--);
         Atomics.add(cells, 0, bytes);
         if (Atomics.load(cells, 1) !== 0) parentPort.postMessage('ack');
       }
     });`,
    { eval: true, workerData: buffer },
  );
  const acks = new SharedAcks(buffer);
  let delivered = 0;
  let notify: (() => void) | null = null;
  worker.on('message', () => notify?.());
  try {
    for (let round = 0; round < 2000; round++) {
      const sizes = Array.from({ length: 1 + (round % 4) }, () => 1 + Math.floor(Math.random() * 5000));
      for (const bytes of sizes) delivered = (delivered + bytes) | 0;
      worker.postMessage(sizes);
      // Start waiting at a random moment: before the worker wakes, while it counts, or after.
      const until = performance.now() + Math.random() * 0.15;
      while (performance.now() < until);
      acks.setWanted(true);
      while (acks.inFlight(delivered) > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`round ${round}: ${acks.inFlight(delivered)} bytes in flight and no ack message`)), 5000);
          notify = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      notify = null;
      acks.setWanted(false);
    }
  } finally {
    await worker.terminate();
  }
  assert.equal(acks.inFlight(delivered), 0);
});
