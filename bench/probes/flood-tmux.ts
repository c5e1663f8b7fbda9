/**
 * Baseline "tmux": the same fenced command in a detached tmux pane of the same
 * size; tmux answers the DSR itself, then `tmux wait-for -S` ends the clock.
 */
import { readFileSync } from 'node:fs';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv } from '../harness/fence.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote } from '../harness/timing.js';
import { cpuMs } from '../harness/process-tree.js';

export default async function floodTmux(args: { path: string }): Promise<{ ms: number; bytes: number; cpuMs: number }> {
  const bytes = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  const server = new TmuxServer();
  try {
    const argv = fencedFloodArgv(args.path, server.signalCommand('done'));
    const command = argv.map(shellQuote).join(' ');
    await server.start(); // timed from the pane's start in a running server, as patterm's pane is
    const started = performance.now();
    await server.newPane(command);
    const pid = await server.serverPid();
    await server.waitFor('done');
    const ms = performance.now() - started;
    return { ms, bytes, cpuMs: cpuMs(pid) };
  } finally {
    server.kill();
  }
}
