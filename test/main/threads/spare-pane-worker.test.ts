/**
 * A pane worker booted ahead of its pane (spare-pane-worker.ts): the next pane
 * gets it and works as a freshly launched one does, a new spare boots only once
 * patterm is quiet, a dead spare is passed over, and shutdown ends it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { SparePaneWorker } from '../../../src/main/threads/spare-pane-worker.js';
import { WorkerBootGate } from '../../../src/main/threads/worker-boot-gate.js';
import { loadGhosttyModule } from '../../../src/main/threads/wasm-module.js';
import { GridMirror } from '../../../src/shared/grid-mirror.js';
import { SharedAcks } from '../../../src/shared/shared-acks.js';
import { allocateOutputLane } from '../../../src/shared/output-lane.js';
import { launchPaneWorker, launchSpareWorker, type PaneWorkerLaunch } from '../../../src/main/threads/pane-worker-launch.js';
import { SMALL_HEAP_LIMITS } from '../../../src/main/threads/worker-entry.js';
import { BASH, BASH_ENV, eventually, startBash, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';
import { injectFault, useFaultInjection } from '../../helpers/fault-injection.js';

const TIMEOUT = 10_000;

/** What a Pane hands its worker, with the event port's far end to listen on. */
async function paneLaunch(paneId: string): Promise<{ launch: PaneWorkerLaunch; events: MessageChannel['port1'] }> {
  const data = new MessageChannel();
  const events = new MessageChannel();
  data.port2.close();
  const launch: PaneWorkerLaunch = {
    paneId,
    cols: 80,
    rows: 24,
    module: await loadGhosttyModule(),
    gridMirror: GridMirror.allocate(),
    acks: SharedAcks.allocate(),
    lane: allocateOutputLane(),
    dataPort: data.port1,
    eventPort: events.port2,
  };
  return { launch, events: events.port1 };
}

/** The worker's first notice to its pane ({ t: 'ready' } once it has become the pane's). */
const readyFrom = (events: MessageChannel['port1']) =>
  new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no word from the pane worker within ${TIMEOUT} ms`)), TIMEOUT);
    events.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
  });

/** Hands a pane to `spares` and checks it went to the spare, which became the pane's worker. */
async function launchOnSpare(spares: SparePaneWorker, paneId: string) {
  const spareThread = spares.threadId;
  const { launch, events } = await paneLaunch(paneId);
  // Before launch(): the wait for the next spare starts inside it.
  const launchedAt = performance.now();
  const worker = spares.launch(launch);
  assert.equal(worker.threadId, spareThread, 'the pane got the spare');
  assert.deepEqual(await readyFrom(events), { t: 'ready' }, 'the adopted spare became the pane');
  return { worker, events, launchedAt };
}

/** Ends a pane's worker even when the test failed: an adopted worker keeps the process alive. */
async function endPane(pane: { worker: Worker; events: MessageChannel['port1'] } | undefined): Promise<void> {
  if (!pane) return;
  await pane.worker.terminate();
  pane.events.close();
}

test('after prewarm the next pane gets the spare, and the pane works as a fresh one does', async () => {
  const coordinator = useCoordinator();
  await coordinator.prewarm();
  const spareThread = coordinator.spareWorker.threadId;
  assert.notEqual(spareThread, null, 'prewarm left a spare booted');
  const pane = await startBash(coordinator, TIMEOUT);
  assert.equal(coordinator.spareWorker.adopted, 1, 'the pane was given the spare');
  coordinator.write(pane.id, 'echo "sum=$((40+2))"\r', 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^sum=42$', timeoutMs: TIMEOUT })).matched, true);
  coordinator.setPaneSize(60, 20);
  coordinator.write(pane.id, 'echo "$(tput cols)x$(tput lines)"\r', 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^60x20$', timeoutMs: TIMEOUT })).matched, true);
  // Quiet now: a new spare boots for the pane after this one, on another thread.
  const next = await eventually(() => coordinator.spareWorker.threadId, { timeoutMs: TIMEOUT, message: 'a new spare' });
  assert.notEqual(next, spareThread);
  const second = await coordinator.spawn({ argv: BASH, env: BASH_ENV, kind: 'process' });
  assert.equal((await coordinator.waitFor(second.id, { pattern: '^\\$$', timeoutMs: TIMEOUT })).matched, true);
  assert.equal(coordinator.spareWorker.adopted, 2);
  coordinator.write(pane.id, 'exit 3\r', 'user');
  assert.deepEqual(await coordinator.exitPromise(pane.id), { status: 'exited', exitCode: 3, signal: null });
});

test('without prewarm no spare is kept: each pane boots its own worker', async () => {
  const coordinator = useCoordinator();
  await startBash(coordinator, TIMEOUT);
  assert.equal(coordinator.spareWorker.keepsSpare, false, 'no spare is kept, so none will boot');
  assert.equal(coordinator.spareWorker.available, false);
  assert.equal(coordinator.spareWorker.adopted, 0);
});

test('the next spare waits while patterm is busy, up to its longest wait', async () => {
  // A share of 0 is never quiet: only the longest wait lets the spare boot.
  const maxQuietWaitMs = 800;
  const spares = new SparePaneWorker(new WorkerBootGate(), { quietCheckMs: 50, quietCpuShare: 0, maxQuietWaitMs });
  let pane: Awaited<ReturnType<typeof launchOnSpare>> | undefined;
  try {
    await spares.keep();
    pane = await launchOnSpare(spares, 'busy');
    // The first time a spare is there, the longest wait (timed from inside launch()) has passed.
    await eventually(() => spares.available, { timeoutMs: TIMEOUT, message: 'the spare after the longest wait' });
    const waited = performance.now() - pane.launchedAt;
    assert.ok(waited >= maxQuietWaitMs, `a spare booted ${Math.round(waited)} ms after the launch, while busy, before the longest wait`);
  } finally {
    await endPane(pane);
    await spares.dispose();
  }
});

test('when patterm is quiet the next spare boots at the first check', async () => {
  const spares = new SparePaneWorker(new WorkerBootGate(), { quietCheckMs: 50, quietCpuShare: Number.POSITIVE_INFINITY, maxQuietWaitMs: 60_000 });
  let pane: Awaited<ReturnType<typeof launchOnSpare>> | undefined;
  try {
    await spares.keep();
    pane = await launchOnSpare(spares, 'quiet');
    await eventually(() => spares.available, { timeoutMs: TIMEOUT, message: 'the next spare' });
  } finally {
    await endPane(pane);
    await spares.dispose();
  }
});

test('a spare that died is passed over: the pane gets a fresh worker', async () => {
  useFaultInjection();
  const coordinator = useCoordinator();
  await coordinator.prewarm();
  await injectFault({ target: 'spare', fault: 'crash' });
  await eventually(() => !coordinator.spareWorker.available, { message: 'the spare to be gone' });
  const pane = await startBash(coordinator, TIMEOUT);
  assert.equal(coordinator.spareWorker.adopted, 0);
  coordinator.write(pane.id, 'echo alive\r', 'user');
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^alive$', timeoutMs: TIMEOUT })).matched, true);
});

test('shutdown ends the spare', async () => {
  const coordinator = useCoordinator();
  await coordinator.prewarm();
  assert.equal(coordinator.spareWorker.available, true);
  await coordinator.shutdown(500);
  assert.equal(coordinator.spareWorker.available, false);
  assert.equal(coordinator.spareWorker.threadId, null);
});

test('a spare nobody adopted does not keep the process alive', async () => {
  const fixture = fileURLToPath(new URL('../../fixtures/kept-spare.js', import.meta.url));
  const { child, line } = await startWithFirstLine([fixture]);
  assert.notEqual((JSON.parse(line) as { spare: number | null }).spare, null, 'the fixture booted a spare');
  const exited = await eventually(() => child.exitCode !== null || child.signalCode !== null, { timeoutMs: TIMEOUT, message: 'the process to exit with only its spare left' });
  assert.equal(exited, true);
  assert.equal(child.exitCode, 0);
});

/** What V8 set up for the running thread, as Node reports it back from inside. */
function assertSmallYoungGeneration(worker: Worker, what: string): void {
  const limits = worker.resourceLimits;
  assert.ok(limits, `${what}: no resource limits reported (thread not running?)`);
  assert.equal(limits.maxYoungGenerationSizeMb, SMALL_HEAP_LIMITS.maxYoungGenerationSizeMb, `${what}: young generation limit`);
}

test("a launched pane worker and a spare run with SMALL_HEAP_LIMITS' young generation (V8's default let a flooding pane keep tens of MiB)", async () => {
  const { launch, events } = await paneLaunch('p-limits');
  const pane = launchPaneWorker(launch);
  const spare = launchSpareWorker();
  // Both listening before either is awaited: a Worker drops a message nobody listens for.
  const paneReady = readyFrom(events);
  const spareBooted = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the spare did not boot within ${TIMEOUT} ms`)), TIMEOUT);
    spare.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
  });
  try {
    assert.deepEqual(await paneReady, { t: 'ready' });
    await spareBooted;
    assertSmallYoungGeneration(pane, 'pane worker');
    assertSmallYoungGeneration(spare, 'spare');
  } finally {
    events.close();
    await Promise.all([pane.terminate(), spare.terminate()]);
  }
});
