/**
 * 20 panes, each an idle full-screen TUI. Time from the first spawn until all
 * 20 show their screen, then, once idle, the memory of the whole patterm
 * process tree: this process (main thread and every pane worker with its WASM
 * memory) and the children.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { idleTuiArgv, readyMarker, TUI_COUNT } from '../harness/idle-tui.js';
import { rssMiB, treeMemory, type TreeMemory } from '../harness/process-tree.js';
import { sleep } from '../harness/timing.js';

/** Settle time before measuring memory: start-up garbage collected, every pane idle. */
const SETTLE_MS = 1500;

export interface ManyAgentsResult {
  readyMs: number;
  memory: TreeMemory;
  /** RSS of this process before any pane existed (node, patterm's modules, the compiled WASM). */
  baseRssMiB: number;
}

export default async function manyAgentsPatterm(): Promise<ManyAgentsResult> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  const dir = mkdtempSync(join(tmpdir(), 'patterm-bench-agents-'));
  const baseRssMiB = rssMiB(process.pid);
  try {
    const argvs = Array.from({ length: TUI_COUNT }, (_, i) => idleTuiArgv(dir, i));
    const started = performance.now();
    const panes = await Promise.all(argvs.map((argv, i) => coordinator.spawn({ argv, kind: 'process', name: `agent-${i}` })));
    const ready = await Promise.all(panes.map((pane, i) => coordinator.waitFor(pane.id, { pattern: readyMarker(i), timeoutMs: 30_000 })));
    const readyMs = performance.now() - started;
    const missing = ready.filter((result) => !result.matched).length;
    if (missing > 0) throw new Error(`${missing} of ${TUI_COUNT} TUIs never showed their screen`);
    await sleep(SETTLE_MS);
    return { readyMs, memory: treeMemory(process.pid), baseRssMiB };
  } finally {
    await coordinator.shutdown(500);
    rmSync(dir, { recursive: true, force: true });
  }
}
