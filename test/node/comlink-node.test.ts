/**
 * Comlink over worker_threads, as every thread of patterm talks to another:
 * calls and their errors cross, a callback passed as a proxy is called back,
 * a transferred buffer moves instead of being copied, and a released proxy
 * stops working.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { nodeEndpoint, proxy, releaseProxy, transfer, wrap } from '../../src/node/comlink-node.js';

interface Api {
  add(a: number, b: number): number;
  fail(message: string): never;
  countdown(from: number, tell: (n: number) => void): Promise<void>;
  length(buffer: ArrayBuffer): number;
}

const worker = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
   import(workerData).then(({ expose, nodeEndpoint }) => {
     expose({
       add: (a, b) => a + b,
       fail: (message) => { throw new RangeError(message); },
       countdown: async (from, tell) => { for (let n = from; n > 0; n--) await tell(n); },
       length: (buffer) => buffer.byteLength,
     }, nodeEndpoint(parentPort));
   });`,
  { eval: true, workerData: new URL('../../src/node/comlink-node.js', import.meta.url).href },
);
const remote = wrap<Api>(nodeEndpoint(worker));
after(() => worker.terminate());

test('a call crosses threads and comes back with its value', async () => {
  assert.equal(await remote.add(40, 2), 42);
});

test("an error thrown in the other thread rejects the caller's promise with its message", async () => {
  await assert.rejects(remote.fail('out of range'), /out of range/);
});

test('a callback passed as a proxy is called from the other thread, in order', async () => {
  const heard: number[] = [];
  await remote.countdown(
    3,
    proxy((n: number) => void heard.push(n)),
  );
  assert.deepEqual(heard, [3, 2, 1]);
});

test('a transferred buffer moves to the other thread: this side is left with none', async () => {
  const buffer = new ArrayBuffer(1024);
  assert.equal(await remote.length(transfer(buffer, [buffer])), 1024);
  assert.equal(buffer.byteLength, 0, 'detached here');
});

test('a released proxy refuses further calls', async () => {
  const second = wrap<Api>(nodeEndpoint(worker));
  assert.equal(await second.add(1, 1), 2);
  (second as unknown as { [releaseProxy]: () => void })[releaseProxy]();
  assert.throws(() => second.add(1, 1), /released/);
});
