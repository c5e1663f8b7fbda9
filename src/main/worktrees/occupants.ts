/**
 * Who is inside a worktree: patterm's panes that started there or whose
 * processes now work there, and any other process whose working directory is
 * in it (an editor, a shell in another terminal). Removing a directory under
 * a running program loses what it has not written yet.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { liveProcessStats, withDescendants } from '../../node/process-reaper.js';
import { logIgnored } from '../../node/patterm-log.js';
import type { PaneInfo } from '../../shared/pane-types.js';

export interface Occupants {
  panes: Array<{ id: string; name: string; sessionId: string }>;
  /** Processes outside patterm's panes. */
  processes: Array<{ pid: number; command: string }>;
}

export function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/** Live panes and processes inside `dir` (a worktree's real path). Processes are read from /proc, where there is one. */
export function occupantsOf(dir: string, panes: PaneInfo[]): Occupants {
  const running = panes.filter((pane) => pane.process.status === 'running');
  const found = new Map(running.filter((pane) => isInside(dir, pane.cwd)).map((pane) => [pane.id, pane]));
  const processes: Occupants['processes'] = [];
  const inside = processesWorkingIn(dir);
  if (inside.length > 0) {
    const stats = liveProcessStats();
    const paneOf = new Map<number, PaneInfo>();
    for (const pane of running) for (const pid of withDescendants([pane.process.pid], stats)) paneOf.set(pid, pane);
    for (const { pid, command } of inside) {
      const pane = paneOf.get(pid);
      if (pane) found.set(pane.id, pane);
      else processes.push({ pid, command });
    }
  }
  return { panes: [...found.values()].map((pane) => ({ id: pane.id, name: pane.name, sessionId: pane.sessionId })), processes };
}

function processesWorkingIn(dir: string): Array<{ pid: number; command: string }> {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch (error) {
    logIgnored('listing /proc to find processes inside a worktree (only panes are checked)', error);
    return [];
  }
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of pids) {
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch (error) {
      logUnlessExpected(`reading the working directory of process ${pid}`, error);
      continue;
    }
    if (!isInside(dir, cwd)) continue;
    let command = '?';
    try {
      command = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch (error) {
      logUnlessExpected(`reading the command name of process ${pid}`, error);
    }
    found.push({ pid, command });
  }
  return found;
}

/** Gone meanwhile, or another user's: neither can be asked, and every scan meets many. */
const EXPECTED_CODES = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);

function logUnlessExpected(context: string, error: unknown): void {
  if (!EXPECTED_CODES.has((error as NodeJS.ErrnoException).code ?? '')) logIgnored(context, error);
}

export function describeOccupants(occupants: Occupants): string[] {
  return [
    ...occupants.panes.map((pane) => `pane ${pane.name} (child_id ${pane.id}) is running inside it`),
    ...occupants.processes.map((proc) => `process ${proc.pid} (${proc.command}) has its working directory inside it`),
  ];
}
