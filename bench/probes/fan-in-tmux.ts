/** Baseline for fan-in: the same N fenced floods as windows of one tmux server. */
import { readFileSync } from 'node:fs';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv } from '../harness/fence.js';
import { busySince, systemBusyMs } from '../harness/system-cpu.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote } from '../harness/timing.js';

export interface FanInTmuxResult {
  ms: number;
  bytes: number;
  /** Machine CPU ms from the first pane to the last fence; null off Linux. */
  busyMs: number | null;
}

export default async function fanInTmux(args: { path: string; panes: number }): Promise<FanInTmuxResult> {
  const perPane = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  const server = new TmuxServer();
  try {
    const busyBefore = systemBusyMs();
    const started = performance.now();
    const waits: Promise<string>[] = [];
    for (let i = 0; i < args.panes; i++) {
      await server.newPane(fencedFloodArgv(args.path, server.signalCommand(`done-${i}`)).map(shellQuote).join(' '));
      waits.push(server.waitFor(`done-${i}`));
    }
    await Promise.all(waits);
    const ms = performance.now() - started;
    return { ms, bytes: perPane * args.panes, busyMs: busySince(busyBefore) };
  } finally {
    server.kill();
  }
}
