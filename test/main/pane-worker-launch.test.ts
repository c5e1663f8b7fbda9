/**
 * A pane's worker thread runs with the small young generation of
 * SMALL_HEAP_LIMITS (worker-entry.ts), launched for its pane or booted as a
 * spare: V8's default let a flooding pane's thread grow and keep tens of MiB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { launchPaneWorker, launchSpareWorker } from '../../src/main/pane-worker-launch.js';
import { SMALL_HEAP_LIMITS } from '../../src/main/worker-entry.js';
import { loadGhosttyModule } from '../../src/main/wasm-module.js';
import { GridMirror } from '../../src/shared/grid-mirror.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import { allocateOutputLane } from '../../src/shared/output-lane.js';

const TIMEOUT = 10_000;

/** The worker's first message on `port`: a booted worker answers with one (a spare on parentPort, a pane on its event port). */
function firstMessage(port: { once(event: 'message', listener: (message: unknown) => void): unknown }, what: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no word from ${what} within ${TIMEOUT} ms`)), TIMEOUT);
    port.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
  });
}

/** What V8 set up for the running thread, as Node reports it back from inside. */
function assertSmallYoungGeneration(worker: Worker, what: string): void {
  const limits = worker.resourceLimits;
  assert.ok(limits, `${what}: no resource limits reported (thread not running?)`);
  assert.equal(limits.maxYoungGenerationSizeMb, SMALL_HEAP_LIMITS.maxYoungGenerationSizeMb, `${what}: young generation limit`);
}

test('a launched pane worker and a spare run with the small young generation', async () => {
  const data = new MessageChannel();
  const events = new MessageChannel();
  data.port2.close();
  const pane = launchPaneWorker({
    paneId: 'p-limits',
    cols: 80,
    rows: 24,
    module: await loadGhosttyModule(),
    gridMirror: GridMirror.allocate(),
    acks: SharedAcks.allocate(),
    lane: allocateOutputLane(),
    dataPort: data.port1,
    eventPort: events.port2,
  });
  const spare = launchSpareWorker();
  // Both listening before either is awaited: a Worker drops a message nobody listens for.
  const paneReady = firstMessage(events.port1, 'the pane worker');
  const spareReady = firstMessage(spare, 'the spare');
  try {
    assert.deepEqual(await paneReady, { t: 'ready' });
    await spareReady;
    assertSmallYoungGeneration(pane, 'pane worker');
    assertSmallYoungGeneration(spare, 'spare');
  } finally {
    events.port1.close();
    await Promise.all([pane.terminate(), spare.terminate()]);
  }
});
