/**
 * What the machine itself allows for fan-in: the CPU cost per MB of getting
 * the floods' bytes out of their PTYs (N raw node-pty readers at once: the
 * flooding programs, the kernel's tty work and the reads) and of parsing
 * them (bare ghostty-web, one pane after another). Any design that reads
 * and parses every byte pays at least their sum, so with every core busy
 * the aggregate cannot exceed cores x 1000 / (read + parse) MB/s.
 */
import { availableParallelism } from 'node:os';
import { measureSystemCpu } from '../harness/system-cpu.js';
import floodBareGhostty from './flood-bare-ghostty.js';
import floodRawPty from './flood-raw-pty.js';

export interface FanInCeiling {
  cores: number;
  /** Machine CPU ms per MiB, reading N floods at once (null off Linux). */
  readCpuMsPerMiB: number | null;
  /** Machine CPU ms per MiB, parsing in this thread. */
  parseCpuMsPerMiB: number | null;
}

const MIB = 1024 * 1024;

export default async function fanInCeiling(args: { path: string; panes: number }): Promise<FanInCeiling> {
  const read = await measureSystemCpu(() => Promise.all(Array.from({ length: args.panes }, () => floodRawPty({ path: args.path }))));
  const readBytes = read.result.reduce((sum, pane) => sum + pane.bytes, 0);
  const parse = await measureSystemCpu(async () => {
    let bytes = 0;
    for (let pane = 0; pane < args.panes; pane++) bytes += (await floodBareGhostty({ path: args.path })).bytes;
    return bytes;
  });
  const perMiB = (busyMs: number | null, bytes: number) => (busyMs === null ? null : busyMs / (bytes / MIB));
  return { cores: availableParallelism(), readCpuMsPerMiB: perMiB(read.busyMs, readBytes), parseCpuMsPerMiB: perMiB(parse.busyMs, parse.result) };
}
