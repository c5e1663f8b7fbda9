/**
 * 20 panes, each an agent CLI's spinner redrawing its status line, nobody
 * watching: the CPU the patterm process (main thread and every worker) spends
 * keeping their screens current, over a window after they have all started.
 */
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { cpuMs, mainThreadCpuMs } from '../harness/process-tree.js';
import { SPINNER_COUNT, spinnerArgv } from '../harness/spinner.js';
import { sleep } from '../harness/timing.js';

export interface AnimatingResult {
  /** CPU of the measuring process (patterm's, or the tmux server's) over the window. */
  cpuMs: number;
  /** patterm only: of that, its main thread (the coordinator). */
  mainThreadCpuMs?: number;
  windowMs: number;
}

/** Long enough for every pane's first screen and worker boot to be over. */
export const WARMUP_MS = 1500;
export const WINDOW_MS = 4000;

export default async function animatingAgentsPatterm(): Promise<AnimatingResult> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    for (let i = 0; i < SPINNER_COUNT; i++) await coordinator.spawn({ argv: spinnerArgv(PANE.rows), kind: 'process', name: `agent-${i}` });
    await sleep(WARMUP_MS);
    const cpuBefore = cpuMs(process.pid);
    const mainBefore = mainThreadCpuMs();
    const started = performance.now();
    await sleep(WINDOW_MS);
    return { cpuMs: cpuMs(process.pid) - cpuBefore, mainThreadCpuMs: mainThreadCpuMs() - mainBefore, windowMs: performance.now() - started };
  } finally {
    await coordinator.shutdown(500);
  }
}
