/**
 * Names the calling thread in the kernel (its `comm`), so that per-thread
 * tools (`top -H`, `perf`, /proc/<pid>/task/<tid>/comm) and the bench's
 * per-thread CPU figures can tell patterm's threads apart. Node leaves every
 * worker thread named after the process. Linux only; elsewhere a no-op.
 */
import { writeFileSync } from 'node:fs';
import { logIgnored } from './patterm-log.js';

/** The kernel keeps this many bytes of a thread's name. */
const COMM_BYTES = 15;

export const PTY_HOST_THREAD_NAME = 'pty-host';
export const PANE_WORKER_THREAD_NAME = 'pane-worker';

export function nameThisThread(name: string): void {
  if (process.platform !== 'linux') return;
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, COMM_BYTES));
  } catch (error) {
    logIgnored(`naming this thread ${JSON.stringify(name)}`, error);
  }
}
