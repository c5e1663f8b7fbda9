/**
 * CPU time of each of this process's threads, from /proc/self/task/<tid>/schedstat
 * (nanoseconds on a CPU, user and kernel alike), grouped by role: the main
 * thread, the PTY host, the pane workers (patterm names them: src/node/thread-name.ts)
 * and the rest (V8's platform threads, which collect garbage and compile, and
 * libuv's pool). Linux only: null elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { PANE_WORKER_THREAD_NAME, PTY_HOST_THREAD_NAME } from '../../src/node/thread-name.js';

export type ThreadRole = 'main' | 'pty host' | 'pane workers' | 'other';
export const THREAD_ROLES: readonly ThreadRole[] = ['main', 'pty host', 'pane workers', 'other'];

export type ThreadCpuMs = Record<ThreadRole, number>;

/** Each live thread's name and CPU nanoseconds so far. */
type Snapshot = Map<number, { comm: string; ns: number }>;

export function threadSnapshot(): Snapshot | null {
  const threads: Snapshot = new Map();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  for (const tid of tids) {
    try {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      threads.set(Number(tid), { comm, ns });
    } catch {
      // The thread ended between the listing and the read: its time is lost either way.
    }
  }
  return threads;
}

function roleOf(tid: number, comm: string): ThreadRole {
  if (tid === process.pid) return 'main';
  if (comm === PTY_HOST_THREAD_NAME) return 'pty host';
  if (comm === PANE_WORKER_THREAD_NAME) return 'pane workers';
  return 'other';
}

/**
 * Follows the threads from now on, reading them every SAMPLE_MS and whenever
 * sample() is called, so that a thread which ends before stop() (a pane's
 * worker let go once its program exited: call sample() at each exit) still
 * counts up to its last reading.
 */
export class ThreadCpuTracker {
  private readonly before = threadSnapshot();
  private readonly last: Snapshot = new Map();
  private readonly timer = setInterval(() => this.sample(), SAMPLE_MS);

  constructor() {
    this.timer.unref();
  }

  /** CPU ms per role since construction; null off Linux. */
  stop(): ThreadCpuMs | null {
    clearInterval(this.timer);
    this.sample();
    return threadCpuSince(this.before, this.last);
  }

  sample(): void {
    for (const [tid, thread] of threadSnapshot() ?? []) this.last.set(tid, thread);
  }
}

const SAMPLE_MS = 250;

/**
 * CPU ms per role between two snapshots. A thread born in between counts from
 * zero; one that ended before `after` is missing from it, and so is what it
 * used (take `after` while the threads measured are still alive).
 */
export function threadCpuSince(before: Snapshot | null, after: Snapshot | null = threadSnapshot()): ThreadCpuMs | null {
  if (!before || !after) return null;
  const used: ThreadCpuMs = { main: 0, 'pty host': 0, 'pane workers': 0, other: 0 };
  for (const [tid, { comm, ns }] of after) used[roleOf(tid, comm)] += (ns - (before.get(tid)?.ns ?? 0)) / 1e6;
  return used;
}

/** Now on the clock V8's CPU profiles count in (microseconds), to bound a profile to a timed window (profile-stages.ts). */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
