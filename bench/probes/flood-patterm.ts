/**
 * patterm end to end: one pane through the Coordinator (PTY read on this
 * thread, parse in the pane's worker), the clock stopping when the pane's
 * process has exited and every byte it wrote was parsed. The child only exits
 * after its DSR fence was answered by the pane's emulator.
 */
import { readFileSync } from 'node:fs';
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv, PANE } from '../harness/fence.js';
import { monotonicUs, threadCpuSince, threadSnapshot, type ThreadCpuMs } from '../harness/thread-cpu.js';

export default async function floodPatterm(args: { path: string }): Promise<{ ms: number; bytes: number; cpuMs: number; threads: ThreadCpuMs | null; windowUs: [number, number] }> {
  const bytes = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  await loadGhosttyModule(); // patterm compiles the WASM once at start-up, not per pane
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    // As the app does at start-up: the PTY host is up and a spare worker booted. The pane is
    // timed from its spawn in a running patterm, as tmux's from new-window in a running server.
    await coordinator.prewarm();
    const cpu = process.cpuUsage();
    const threads = threadSnapshot();
    const windowStart = monotonicUs();
    const started = performance.now();
    const pane = await coordinator.spawn({ argv: fencedFloodArgv(args.path), kind: 'process' });
    const exit = await coordinator.exitPromise(pane.id);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const perThread = threadCpuSince(threads);
    const windowUs: [number, number] = [windowStart, monotonicUs()];
    if (exit.exitCode !== 0) throw new Error(`flood pane ended with ${JSON.stringify(exit)}`);
    return { ms, bytes, cpuMs: (used.user + used.system) / 1000, threads: perThread, windowUs };
  } finally {
    await coordinator.shutdown(500);
  }
}
