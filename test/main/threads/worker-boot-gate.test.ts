/**
 * Pane workers boot a few at a time (worker-boot-gate.ts): the gate itself with
 * stand-in boots, then sixteen real panes started at once through the Coordinator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { WorkerBootGate, type Bootable } from '../../../src/main/threads/worker-boot-gate.js';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';

/** A stand-in for a pane: boots when the test says so. */
function fakeBoot(): Bootable & { finish: () => void } {
  let finish!: () => void;
  const booted = new Promise<void>((resolve) => (finish = resolve));
  return { booted, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('the gate lets `limit` boots run, and the next starts when one has booted', async () => {
  const gate = new WorkerBootGate(2, 60_000);
  const boots = [fakeBoot(), fakeBoot(), fakeBoot()];
  const startedAt: number[] = [];
  const all = boots.map((boot, i) =>
    gate.start(async () => {
      startedAt.push(i);
      return boot;
    }),
  );
  await tick();
  assert.deepEqual(startedAt, [0, 1]);
  assert.deepEqual(gate.pending, { booting: 2, queued: 1 });
  boots[1].finish();
  await eventually(() => startedAt.length === 3, { message: 'the third boot to start once the second had booted' });
  assert.deepEqual(startedAt, [0, 1, 2]);
  boots[0].finish();
  boots[2].finish();
  await Promise.all(all);
  await eventually(() => gate.pending.booting === 0, { message: 'every slot to be free' });
});

test('a start that fails gives its slot back at once, and the caller gets the error', async () => {
  const gate = new WorkerBootGate(1, 60_000);
  await assert.rejects(gate.start(async () => Promise.reject(new Error('spawn failed: no such program'))), /no such program/);
  assert.deepEqual(gate.pending, { booting: 0, queued: 0 });
  const boot = fakeBoot();
  await gate.start(async () => boot);
  assert.equal(gate.pending.booting, 1);
});

test('a boot that never reports gives its slot up after the timeout, so later spawns go on', async () => {
  const gate = new WorkerBootGate(1, 50);
  await gate.start(async () => fakeBoot()); // never finishes
  const next = fakeBoot();
  let nextStarted = false;
  const second = gate.start(async () => {
    nextStarted = true;
    return next;
  });
  await tick();
  assert.equal(nextStarted, false, 'the slot is still held');
  // The gate's timer does not keep a process alive (a real boot's worker does); this stands in for it.
  const keepAlive = setInterval(() => undefined, 1000);
  await second.finally(() => clearInterval(keepAlive));
  assert.equal(nextStarted, true);
});

const coordinator = useCoordinator();

test('sixteen panes started at once: never more boots than cores, every pane runs, and each slot is freed by its boot', async () => {
  let mostBooting = 0;
  let sampling = true;
  const sample = async () => {
    while (sampling) {
      mostBooting = Math.max(mostBooting, coordinator.bootGate.pending.booting);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  const sampler = sample();
  try {
    const panes = await Promise.all(
      Array.from({ length: 16 }, (_, i) => coordinator.spawn({ argv: ['sh', '-c', `echo pane-${i}-up; exec sleep 30`], kind: 'process' })),
    );
    for (const [i, pane] of panes.entries()) {
      const seen = await coordinator.waitFor(pane.id, { pattern: `pane-${i}-up`, timeoutMs: 15_000 });
      assert.equal(seen.matched, true, `pane ${i} showed its output`);
    }
    // Freed by the workers' ready notices, well inside the 2 s that a boot which never reports would hold a slot.
    await eventually(() => coordinator.bootGate.pending.booting === 0, { timeoutMs: 1000, message: 'every boot slot to be free' });
  } finally {
    sampling = false;
    await sampler;
  }
  assert.ok(mostBooting >= 1 && mostBooting <= availableParallelism(), `${mostBooting} workers booted at once on ${availableParallelism()} cores`);
  assert.deepEqual(coordinator.bootGate.pending, { booting: 0, queued: 0 });
});
