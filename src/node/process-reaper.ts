/**
 * Finds and kills every process that belongs to a pane, not just its process
 * group. Interactive shells put background jobs in their own groups and
 * `setsid` escapes the session, so a pane's processes are found three ways:
 * the pane's session/group id, descent from the pane's root pid, and the
 * PATTERM_PANE marker each pane's environment carries (inherited by descendants).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { logIgnored } from './patterm-log.js';

export const PANE_MARKER_VAR = 'PATTERM_PANE';
export const INSTANCE_MARKER_VAR = 'PATTERM_INSTANCE';

/** Time between liveness checks while waiting out the grace period. */
/** A pane's processes get SIGTERM first and SIGKILL after this window: long enough to save state, short enough that Quit feels prompt. */
export const DEFAULT_KILL_GRACE_MS = 2000;
export const POLL_INTERVAL_MS = 25;
/** SIGKILL cannot be ignored; this only bounds the wait for the kernel to finish the job. */
export const SIGKILL_SETTLE_MS = 1000;

export interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** The foreground process group of the process's terminal (-1 without one). */
  tpgid: number;
  state: string;
  nice: number;
  /** The executable's name as the kernel keeps it (15 characters at most). */
  comm: string;
  /** When the process started, in clock ticks after boot: with the pid, it names one process even after the pid is reused. */
  startTime: number;
}

/** Parsed /proc/<pid>/stat, or null when the process is gone. */
export function readStat(pid: number): ProcStat | null {
  return readStatFile(`/proc/${pid}/stat`, pid);
}

/** The same for any stat file, e.g. one thread's /proc/self/task/<tid>/stat. */
export function readStatFile(path: string, id: number): ProcStat | null {
  try {
    const text = readFileSync(path, 'utf8');
    // comm may contain spaces and parentheses; fields resume after the last ')'.
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    const comm = text.slice(text.indexOf('(') + 1, close);
    return { pid: id, state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]), tpgid: Number(fields[5]), nice: Number(fields[16]), startTime: Number(fields[19]), comm };
  } catch (error) {
    logUnlessGone(`reading ${path}`, error);
    return null;
  }
}

/** True when the NUL-separated environment block holds exactly `entry` (NAME=value). */
export function environHasEntry(environ: Buffer, entry: string): boolean {
  return environ.includes(Buffer.from(`\0${entry}\0`)) || environ.subarray(0, entry.length + 1).equals(Buffer.from(`${entry}\0`));
}

function hasEnvMarker(pid: number, entry: string): boolean {
  try {
    return environHasEntry(readFileSync(`/proc/${pid}/environ`), entry);
  } catch (error) {
    logUnlessGone(`reading the environment of ${pid}`, error);
    return false;
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Every process that has not exited (zombies excluded). */
export function liveProcessStats(): ProcStat[] {
  return allPids().map(readStat).filter((s): s is ProcStat => s !== null && s.state !== 'Z');
}

/** `roots` that are alive and all their live descendants, never patterm itself. */
export function withDescendants(roots: Iterable<number>, stats?: ProcStat[]): number[] {
  const rootList = [...roots];
  // Nothing to look for: spare the scan of every process on the machine.
  if (rootList.length === 0) return [];
  const children = new Map<number, number[]>();
  const alive = new Set<number>();
  for (const s of stats ?? liveProcessStats()) {
    alive.add(s.pid);
    const list = children.get(s.ppid) ?? [];
    list.push(s.pid);
    children.set(s.ppid, list);
  }
  const found = new Set<number>();
  const visit = (pid: number) => {
    if (found.has(pid) || !alive.has(pid)) return;
    found.add(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  for (const root of rootList) visit(root);
  found.delete(process.pid);
  return [...found];
}

/**
 * Every live process that belongs to the pane rooted at `rootPid` with env marker `marker`.
 * `rootPid` null: the root has been reaped (its pid, session and group ids may be
 * reused by now), so only marked processes and their descendants count.
 */
export function findPaneProcesses(rootPid: number | null, marker: string): number[] {
  const stats = liveProcessStats();
  const entry = `${PANE_MARKER_VAR}=${marker}`;
  const roots = stats
    .filter((s) => s.pid !== process.pid)
    .filter((s) => (rootPid !== null && (s.pid === rootPid || s.session === rootPid || s.pgrp === rootPid)) || hasEnvMarker(s.pid, entry))
    .map((s) => s.pid);
  return withDescendants(roots, stats);
}

export function isAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== 'Z';
}

/** Sends `signal` to each pid (gone ones are skipped); with SIGTERM, a process that ignores it but not SIGHUP is hung up too. */
export function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      logUnlessGone(`sending ${signal} to ${pid}`, error);
    }
    if (signal === 'SIGTERM' && hangsUpInstead(pid)) {
      try {
        process.kill(pid, 'SIGHUP');
      } catch (error) {
        logUnlessGone(`hanging up ${pid}`, error);
      }
    }
  }
}

/** Signal numbers as /proc/<pid>/status masks count them (bit n-1). */
const SIGHUP_NUMBER = 1;
const SIGTERM_NUMBER = 15;

/**
 * A process that ignores SIGTERM but not SIGHUP: an interactive shell (an
 * interactive bash ignores SIGTERM). Closing a terminal ends it with SIGHUP, on
 * which it saves its history and hangs up its jobs; without that, ending a pane
 * with a shell in it waits out the whole grace period and then SIGKILLs the
 * shell, its history unsaved.
 */
function hangsUpInstead(pid: number): boolean {
  try {
    const ignored = /^SigIgn:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (!ignored) return false;
    const mask = BigInt(`0x${ignored}`);
    const isIgnored = (signal: number) => ((mask >> BigInt(signal - 1)) & 1n) === 1n;
    return isIgnored(SIGTERM_NUMBER) && !isIgnored(SIGHUP_NUMBER);
  } catch (error) {
    logUnlessGone(`reading the signal mask of ${pid}`, error);
    return false; // gone, or no /proc (not Linux): SIGTERM and the grace period as before
  }
}

/**
 * Sends `signal` to every process of the pane, waits up to `graceMs` for them to
 * exit, then SIGKILLs whatever remains (re-scanning, to catch late forks). With
 * SIGTERM, a process that ignores it but not SIGHUP (a shell) is hung up too.
 */
export async function killPaneTree(rootPid: number | null, marker: string, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  const pids = findPaneProcesses(rootPid, marker);
  signalAll(pids, signal);
  const started = Date.now();
  if (signal !== 'SIGKILL' && (await waitForExit(pids, graceMs)).length === 0) {
    // Everything found has exited, but a process may have forked on its way out
    // (a SIGTERM trap that starts a helper): give those the rest of the grace window.
    // The root is reaped by now, so only its marker identifies the pane.
    const late = findPaneProcesses(null, marker);
    if (late.length === 0) return;
    signalAll(late, signal);
    if ((await waitForExit(late, Math.max(0, graceMs - (Date.now() - started)))).length === 0 && findPaneProcesses(null, marker).length === 0) return;
  }
  const survivors = findPaneProcesses(pids.every((pid) => !isAlive(pid)) ? null : rootPid, marker);
  signalAll(survivors, 'SIGKILL');
  // SIGKILL is delivered asynchronously; return once the kernel has really ended them.
  await waitForExit(survivors, SIGKILL_SETTLE_MS);
}

/**
 * A process that is gone (ENOENT, ESRCH), or another user's (EACCES), is an
 * answer while scanning /proc, not a failure: every scan meets many of them.
 */
const EXPECTED_WHILE_SCANNING = new Set(['ENOENT', 'ESRCH', 'EACCES']);

function logUnlessGone(context: string, error: unknown): void {
  if (!EXPECTED_WHILE_SCANNING.has((error as NodeJS.ErrnoException).code ?? '')) logIgnored(context, error);
}

/** Waits up to `timeoutMs` for `pids` to exit; resolves with those still alive. */
export async function waitForExit(pids: number[], timeoutMs: number): Promise<number[]> {
  let alive = pids;
  const deadline = Date.now() + timeoutMs;
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    alive = alive.filter(isAlive);
  }
  return alive;
}
