/**
 * Baseline "raw PTY read": node-pty with `encoding: null`, bytes counted and
 * dropped. The ceiling for any terminal reading this PTY on this machine.
 */
import { readFileSync } from 'node:fs';
import * as pty from 'node-pty';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, fencedFloodArgv, PANE } from '../harness/fence.js';

export default async function floodRawPty(args: { path: string }): Promise<{ ms: number; bytes: number; cpuMs: number }> {
  const expected = cookForPty(readFileSync(args.path)).length + DSR_QUERY.length;
  const [file, ...rest] = fencedFloodArgv(args.path);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const child = pty.spawn(file, rest, { ...PANE, name: 'xterm-256color', encoding: null } as pty.IPtyForkOptions);
  let bytes = 0;
  const ms = await new Promise<number>((resolve) => {
    child.onData((data) => {
      bytes += (data as unknown as Buffer).length;
      if (bytes >= expected) resolve(performance.now() - started);
    });
  });
  const used = process.cpuUsage(cpu);
  child.kill('SIGKILL');
  return { ms, bytes, cpuMs: (used.user + used.system) / 1000 };
}
