/** Baseline for flood-memory: the same endless flood in a tmux pane; RSS of the tmux server sampled throughout. */
import { rssMiB } from '../harness/process-tree.js';
import { sampleRss } from '../harness/rss-sampler.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';
import { loopingFloodArgv, type FloodMemoryResult } from './flood-memory-patterm.js';

export default async function floodMemoryTmux(args: { path: string; seconds: number }): Promise<Omit<FloodMemoryResult, 'parsedMiB' | 'scrollbackRows'>> {
  const server = new TmuxServer();
  try {
    await server.newPane('sleep 3600');
    const pid = await server.serverPid();
    await sleep(500);
    const baseRssMiB = rssMiB(pid);
    await server.tmux('new-window', '-d', loopingFloodArgv(args.path).map(shellQuote).join(' '));
    return { baseRssMiB, ...(await sampleRss(pid, args.seconds)) };
  } finally {
    server.kill();
  }
}
