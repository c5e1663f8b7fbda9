/**
 * One pane floods for a minute while nobody looks at it (no TUI, no reads:
 * "unfocused"). RSS of this process, which holds the pane's worker and its WASM
 * memory, is sampled throughout; the figure is the peak above the RSS before
 * the pane existed.
 */
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { rssMiB } from '../harness/process-tree.js';
import { sampleRss, type RssTrace } from '../harness/rss-sampler.js';
import { sleep } from '../harness/timing.js';

export interface FloodMemoryResult extends RssTrace {
  baseRssMiB: number;
  parsedMiB: number;
  /** Rows the pane's scrollback held when the flood ended (its screen's rows not counted). */
  scrollbackRows: number;
}

export function loopingFloodArgv(path: string): string[] {
  return ['bash', '--norc', '--noprofile', '-c', 'while :; do cat -- "$1"; done', 'flood', path];
}

export default async function floodMemoryPatterm(args: { path: string; seconds: number }): Promise<FloodMemoryResult> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    // A pane that exits at once warms up everything a pane loads, so the base excludes one-off costs.
    const warm = await coordinator.spawn({ argv: ['true'], kind: 'process' });
    await coordinator.exitPromise(warm.id);
    await coordinator.close(warm.id);
    await sleep(500);
    const baseRssMiB = rssMiB(process.pid);
    const pane = await coordinator.spawn({ argv: loopingFloodArgv(args.path), kind: 'process' });
    const trace = await sampleRss(process.pid, args.seconds);
    const parsedMiB = (await coordinator.stream(pane.id, Number.MAX_SAFE_INTEGER)).headOffset / (1024 * 1024);
    const scrollbackRows = (await coordinator.history(pane.id, 0, 1)).total - PANE.rows;
    return { baseRssMiB, ...trace, parsedMiB, scrollbackRows };
  } finally {
    await coordinator.shutdown(500);
  }
}
