/**
 * The log a TUI run writes by default, so a user who lost something has a
 * file to look at and attach to a bug report: one file per run under
 * `$XDG_STATE_HOME/patterm/logs/`, the last few runs kept. PATTERM_LOG, when
 * set, sends lines elsewhere instead (patterm-log.ts), and then no file is
 * made here.
 *
 * The main thread starts it before any worker but the renderer (which boots
 * first, and is handed it in its RendererInit): the others learn of it when
 * they start (patterm-log.ts, sharedRunLog).
 */
import { mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describeError, logIgnored, shareRunLog, type RunLogShared } from './patterm-log.js';
import { WarningCounter } from './warning-counter.js';
import { stateHome, type Env } from './xdg-dirs.js';

/** Runs whose logs are kept, this one included: enough to reach back past a few restarts after a problem. */
export const KEPT_RUN_LOGS = 10;

const LOG_NAME = /^patterm-.+-(\d+)\.log$/;

/** Where the run logs are: `$XDG_STATE_HOME/patterm/logs`. */
export function logDirectory(env: Env = process.env): string {
  return join(stateHome(env), 'patterm', 'logs');
}

/** A run's file: the start time first (UTC, so names sort by time), then the pid, which tells concurrent runs apart. */
export function runLogName(startedAt: Date, pid: number): string {
  return `patterm-${startedAt.toISOString().replace(/:/g, '-')}-${pid}.log`;
}

export interface RunLogOptions {
  directory?: string;
  keep?: number;
  startedAt?: Date;
  pid?: number;
  env?: Env;
}

export interface RunLog extends RunLogShared {
  counter: WarningCounter;
  /** Why no file could be made here, when none could. */
  problem: string | null;
  /** Removes the oldest runs' logs beyond those kept; apart, so a caller can do it once the first frame is on its way. */
  prune(): void;
}

/** Sets up this run's log and warning count for every thread started after it. */
export function startRunLog(options: RunLogOptions = {}): RunLog {
  const env = options.env ?? process.env;
  const counter = new WarningCounter();
  const directory = options.directory ?? logDirectory(env);
  let path: string | null = null;
  let problem: string | null = null;
  if (!env.PATTERM_LOG) {
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      path = join(directory, runLogName(options.startedAt ?? new Date(), options.pid ?? process.pid));
    } catch (error) {
      problem = `cannot make the log directory ${directory}: ${describeError(error)}`;
    }
  }
  shareRunLog({ path, warnings: counter.buffer });
  const prune = () => {
    // This run's own file counts among those kept, whether it has been written to yet or not.
    if (path) pruneRunLogs(directory, (options.keep ?? KEPT_RUN_LOGS) - 1, basename(path));
  };
  return { path, warnings: counter.buffer, counter, problem, prune };
}

/**
 * Deletes the oldest run logs until `keep` are left besides `own` (this
 * run's), sparing the logs of runs still alive (a second patterm in another
 * terminal goes on writing to its own).
 */
export function pruneRunLogs(directory: string, keep: number, own?: string): void {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => LOG_NAME.test(name) && name !== own).sort();
  } catch (error) {
    logIgnored(`listing old run logs in ${directory}`, error);
    return;
  }
  const excess = names.slice(0, Math.max(0, names.length - keep));
  for (const name of excess) {
    if (processAlive(Number(LOG_NAME.exec(name)![1]))) continue;
    try {
      unlinkSync(join(directory, name));
    } catch (error) {
      logIgnored(`removing the old run log ${name}`, error);
    }
  }
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, and someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
