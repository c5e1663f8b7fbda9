/**
 * Child processes the main thread starts and waits for itself (through libuv:
 * child_process, the orphan watchdog). patterm is a child subreaper that reaps
 * the orphans it adopts (src/main/process/orphan-adoption.ts); every child it
 * must not reap, because libuv is waiting for its exit, is declared here at once,
 * before the event loop can turn and run that scan.
 */
import type { ChildProcess } from 'node:child_process';

const own = new Set<number>();

/** Declares `child` until it has exited; call right after spawn/execFile returns. */
export function declareOwnChild(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  own.add(pid);
  child.once('exit', () => own.delete(pid));
}

/** A child that lives as long as patterm (the orphan watchdog), known only by its pid. */
export function declareOwnChildPid(pid: number | undefined): void {
  if (pid !== undefined) own.add(pid);
}

export function isOwnChild(pid: number): boolean {
  return own.has(pid);
}
