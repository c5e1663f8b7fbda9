/** Baseline for fan-in: the same N fenced floods as windows of one tmux server. */
import { readFileSync } from 'node:fs';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv } from '../harness/fence.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote } from '../harness/timing.js';

export default async function fanInTmux(args: { path: string; panes: number }): Promise<{ ms: number; bytes: number }> {
  const perPane = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  const server = new TmuxServer();
  try {
    const started = performance.now();
    const waits: Promise<string>[] = [];
    for (let i = 0; i < args.panes; i++) {
      await server.newPane(fencedFloodArgv(args.path, server.signalCommand(`done-${i}`)).map(shellQuote).join(' '));
      waits.push(server.waitFor(`done-${i}`));
    }
    await Promise.all(waits);
    return { ms: performance.now() - started, bytes: perPane * args.panes };
  } finally {
    server.kill();
  }
}
