/**
 * An orchestrator's day in small: short processes (a test run, a build) start
 * one after another, print a few thousand lines and exit, and stay in the tree.
 * RSS growth of this process once they have all exited, with their workers
 * retired (frozen-pane.ts) or, for comparison, still live.
 */
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { exitedPaneArgv, EXITED_PANES } from '../harness/exited-pane.js';
import { rssMiB } from '../harness/process-tree.js';
import { sleep } from '../harness/timing.js';

/** Retire quickly here: the figure is what a retired pane keeps, not how long the app waits first. */
const RETIRE_AFTER_MS = 200;
/** Long enough for the last retirements, the garbage collector and the allocator to settle. */
const SETTLE_MS = 1500;

export interface ExitedPanesResult {
  rssGrowthMiB: number;
  /** Growth per pane over the second half of the panes: the first ones also warm allocator arenas, a cost paid once. */
  marginalMiB: number;
  retired: number;
}

export default async function exitedPanesPatterm(args: { retire: boolean }): Promise<ExitedPanesResult> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  coordinator.retirement.afterExitMs = args.retire ? RETIRE_AFTER_MS : Infinity;
  // One pane first, so the PTY host, the worker code and the allocators are warm before the baseline.
  const warm = await coordinator.spawn({ argv: ['true'], kind: 'process' });
  await coordinator.exitPromise(warm.id);
  await coordinator.close(warm.id);
  await sleep(SETTLE_MS);
  const baseline = rssMiB(process.pid);
  try {
    const ids: string[] = [];
    let halfway = baseline;
    for (let i = 0; i < EXITED_PANES; i++) {
      const pane = await coordinator.spawn({ argv: exitedPaneArgv(i), kind: 'process', name: `run-${i}` });
      ids.push(pane.id);
      const exit = await coordinator.exitPromise(pane.id);
      if (exit.exitCode !== 0) throw new Error(`run-${i} ended with ${JSON.stringify(exit)}`);
      if (i === EXITED_PANES / 2 - 1) {
        await sleep(SETTLE_MS);
        halfway = rssMiB(process.pid);
      }
    }
    await sleep(SETTLE_MS);
    const end = rssMiB(process.pid);
    return { rssGrowthMiB: end - baseline, marginalMiB: (end - halfway) / (EXITED_PANES / 2), retired: ids.filter((id) => coordinator.workerRetired(id)).length };
  } finally {
    await coordinator.shutdown(500);
  }
}
