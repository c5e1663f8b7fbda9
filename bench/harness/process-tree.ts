/**
 * Memory of a process and its descendants, from /proc (Linux). RSS counts
 * shared pages (libc, node's text) once per process, so a sum over many small
 * children overstates; PSS splits shared pages fairly and is reported beside it.
 * Worker threads are part of their process: the patterm process's figure
 * includes every pane worker and its WASM memory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readStat } from '../../src/node/process-reaper.js';

export interface TreeMemory {
  /** The root process alone (patterm: main thread plus all workers). */
  rootRssMiB: number;
  /** Root plus every descendant. */
  treeRssMiB: number;
  treePssMiB: number;
  processes: number;
}

function parentOf(pid: number): number | null {
  return readStat(pid)?.ppid ?? null;
}

export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent === null) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(pid);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A field of /proc/<pid>/status or smaps_rollup, in KiB; 0 when the process is gone. */
function kib(path: string, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(path, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export function rssMiB(pid: number): number {
  return kib(`/proc/${pid}/status`, 'VmRSS') / 1024;
}

export function treeMemory(root: number = process.pid): TreeMemory {
  const pids = [root, ...descendants(root)];
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    rss += kib(`/proc/${pid}/status`, 'VmRSS');
    pss += kib(`/proc/${pid}/smaps_rollup`, 'Pss');
  }
  return { rootRssMiB: rssMiB(root), treeRssMiB: rss / 1024, treePssMiB: pss / 1024, processes: pids.length };
}

/** CPU time (user + system) a process has used so far, all threads, in ms; 0 when it is gone. */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** CPU time of this process's main thread alone (its task id is the process id), in ms. */
export function mainThreadCpuMs(): number {
  return statCpuMs(`/proc/self/task/${process.pid}/stat`);
}

/** utime + stime (fields 14 and 15 of stat(5)) of a /proc stat file, in ms; 0 when it is gone. */
function statCpuMs(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** USER_HZ: /proc reports CPU time in these ticks; 100 on every Linux build that matters here. */
const CLOCK_TICKS_PER_SECOND = 100;
