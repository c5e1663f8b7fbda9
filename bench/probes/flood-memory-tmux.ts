/** Baseline for flood-memory: the same endless flood in a tmux pane; RSS of the tmux server sampled throughout. */
import { rssMiB } from '../harness/process-tree.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';
import { loopingFloodArgv, type FloodMemoryResult } from './flood-memory-patterm.js';

const SAMPLE_MS = 250;

export default async function floodMemoryTmux(args: { path: string; seconds: number }): Promise<Omit<FloodMemoryResult, 'parsedMiB'>> {
  const server = new TmuxServer();
  try {
    await server.newPane('sleep 3600');
    const pid = await server.serverPid();
    await sleep(500);
    const baseRssMiB = rssMiB(pid);
    await server.tmux('new-window', '-d', loopingFloodArgv(args.path).map(shellQuote).join(' '));
    const samples: number[] = [];
    const started = performance.now();
    while (performance.now() - started < args.seconds * 1000) {
      await sleep(SAMPLE_MS);
      samples.push(rssMiB(pid));
    }
    const half = Math.floor(samples.length / 2);
    return {
      baseRssMiB,
      peakRssMiB: Math.max(...samples),
      firstHalfPeakMiB: Math.max(...samples.slice(0, half)),
      secondHalfPeakMiB: Math.max(...samples.slice(half)),
      endRssMiB: samples[samples.length - 1],
    };
  } finally {
    server.kill();
  }
}
