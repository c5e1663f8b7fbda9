/**
 * Spawn/close churn, as an agent that starts and ends many panes: cycles of
 * CHURN_PANES idle panes spawned at once, then closed, with this process's RSS
 * taken after each cycle once it has settled. The question is whether memory
 * comes back, not how fast spawns are.
 */
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { rssMiB } from '../harness/process-tree.js';
import { sleep } from '../harness/timing.js';

/** Long enough for closed workers to end and the garbage collector and allocator to settle. */
const SETTLE_MS = 2000;
/**
 * After the last cycle, how long the churn is left to come back: past V8's
 * memory reducer, which collects a quiet isolate 8 s after a full collection,
 * and patterm's late allocator trim after a burst of closes (allocator.ts).
 */
const COME_BACK_MS = 20_000;

export interface SpawnChurnResult {
  startMiB: number;
  /** RSS after each cycle, settled. */
  afterCycleMiB: number[];
  peakMiB: number;
  /** RSS COME_BACK_MS after the last cycle's closes. */
  settledMiB: number;
}

export default async function spawnChurn(args: { cycles: number; panes: number }): Promise<SpawnChurnResult> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  // The churn needs more live panes than the default caps allow.
  coordinator.admission.limits = { panesPerSession: args.panes, panesTotal: args.panes, source: 'the spawn-churn probe' };
  // One pane first, so the PTY host, the worker code and the allocators are warm before the baseline.
  const warm = await coordinator.spawn({ argv: ['true'], kind: 'process' });
  await coordinator.exitPromise(warm.id);
  await coordinator.close(warm.id);
  await sleep(SETTLE_MS);
  const startMiB = rssMiB(process.pid);
  const afterCycleMiB: number[] = [];
  let peakMiB = startMiB;
  try {
    for (let cycle = 0; cycle < args.cycles; cycle++) {
      const panes = await Promise.all(Array.from({ length: args.panes }, (_, i) => coordinator.spawn({ argv: ['sleep', '600'], kind: 'process', name: `churn-${cycle}-${i}` })));
      peakMiB = Math.max(peakMiB, rssMiB(process.pid));
      await Promise.all(panes.map((pane) => coordinator.close(pane.id)));
      await sleep(SETTLE_MS);
      afterCycleMiB.push(rssMiB(process.pid));
      process.stderr.write(`[spawn-churn] cycle ${cycle + 1}: ${afterCycleMiB.at(-1)!.toFixed(0)} MiB (start ${startMiB.toFixed(0)}, peak ${peakMiB.toFixed(0)})\n`);
    }
    await sleep(COME_BACK_MS - SETTLE_MS);
    const settledMiB = rssMiB(process.pid);
    process.stderr.write(`[spawn-churn] ${COME_BACK_MS / 1000} s after the last cycle: ${settledMiB.toFixed(0)} MiB\n`);
    return { startMiB, afterCycleMiB, peakMiB, settledMiB };
  } finally {
    await coordinator.shutdown(500);
  }
}
