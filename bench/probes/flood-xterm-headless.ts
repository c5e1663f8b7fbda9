/**
 * Baseline "@xterm/headless": what most peers do, node-pty and xterm's parser on
 * one thread. Flow control as xterm.js documents it (pause the PTY while too
 * much is queued in write(), resume from the write callback); without it xterm
 * discards data past 50 MB and the fence would never come.
 */
import { readFileSync } from 'node:fs';
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv, PANE } from '../harness/fence.js';
import { FLOW_HIGH_WATERMARK_BYTES, FLOW_LOW_WATERMARK_BYTES } from '../../src/shared/pane-protocol.js';

export default async function floodXtermHeadless(args: { path: string }): Promise<{ ms: number; bytes: number; cpuMs: number }> {
  const bytes = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  const term = new xtermHeadless.Terminal({ ...PANE, scrollback: 1000, allowProposedApi: true });
  const [file, ...rest] = fencedFloodArgv(args.path);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const child = pty.spawn(file, rest, { ...PANE, name: 'xterm-256color', encoding: null } as pty.IPtyForkOptions);
  term.onData((reply) => child.write(reply));
  let queued = 0;
  let paused = false;
  child.onData((data) => {
    const chunk = data as unknown as Buffer;
    queued += chunk.length;
    if (!paused && queued > FLOW_HIGH_WATERMARK_BYTES) {
      paused = true;
      child.pause();
    }
    term.write(chunk, () => {
      queued -= chunk.length;
      if (paused && queued < FLOW_LOW_WATERMARK_BYTES) {
        paused = false;
        child.resume();
      }
    });
  });
  const ms = await new Promise<number>((resolve) => child.onExit(() => resolve(performance.now() - started)));
  const used = process.cpuUsage(cpu);
  term.dispose();
  return { ms, bytes, cpuMs: (used.user + used.system) / 1000 };
}
