/**
 * patterm's diagnostics, usable from every thread. Never stdout or stderr
 * while the TUI owns the terminal: lines go to the file named by PATTERM_LOG,
 * else to this run's log (run-log.ts: the TUI writes one by default), else
 * nowhere. PATTERM_LOG_LEVEL (error, warn, info, debug) picks how much.
 *
 * Errors patterm deliberately goes on past come in two kinds, and each call
 * site says which. A benign one (a pane that exited mid-call, a file gone
 * between listing and reading) is logged at debug: `ignoreError`,
 * `logIgnored`. One that costs the user something (input or data lost, a
 * pane left degraded) is logged at warn with its context: `warnError`,
 * `logDegraded`. Every warning or error written is counted in this run's
 * WarningCounter, which the TUI's status line shows.
 *
 * Settings are read on every call, not once: a test (or a worker started
 * with a different environment) can point the log elsewhere at any time, and
 * the call sites are rare paths, not hot loops.
 */
import { appendFileSync } from 'node:fs';
import { getEnvironmentData, setEnvironmentData, threadId } from 'node:worker_threads';
import { setErrorSink } from '../shared/error-sink.js';
import { WarningCounter } from './warning-counter.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Without PATTERM_LOG_LEVEL: warnings and what patterm always said, not the benign errors it goes on past. */
const DEFAULT_LEVEL: LogLevel = 'info';

/**
 * This run's log, as the main thread set it up (run-log.ts). It travels in
 * Node's environment data, which every new Worker copies from the thread that
 * starts it, so every thread finds it, while a pane's programs (which inherit
 * process.env) do not: a patterm started in a pane keeps a log of its own.
 */
export interface RunLogShared {
  /** The run's log file; null when none could be made (PATTERM_LOG may still name one). */
  path: string | null;
  /** A WarningCounter's buffer. */
  warnings: SharedArrayBuffer;
}

const RUN_LOG_KEY = 'patterm.run-log';

export function shareRunLog(shared: RunLogShared | undefined): void {
  setEnvironmentData(RUN_LOG_KEY, shared);
}

export function sharedRunLog(): RunLogShared | undefined {
  return getEnvironmentData(RUN_LOG_KEY) as RunLogShared | undefined;
}

let counter: { buffer: SharedArrayBuffer; counter: WarningCounter } | null = null;

/** This run's count of warnings and errors logged, from every thread; null outside a TUI run. */
export function runWarnings(): WarningCounter | null {
  const buffer = sharedRunLog()?.warnings;
  if (!buffer) return null;
  if (counter?.buffer !== buffer) counter = { buffer, counter: new WarningCounter(buffer) };
  return counter.counter;
}

/** Where lines go now: PATTERM_LOG, else this run's log, else nowhere (null). */
export function logFile(): string | null {
  return process.env.PATTERM_LOG || sharedRunLog()?.path || null;
}

function enabledLevel(): LogLevel | null {
  if (!logFile()) return null;
  const wanted = process.env.PATTERM_LOG_LEVEL;
  return LOG_LEVELS.find((level) => level === wanted) ?? DEFAULT_LEVEL;
}

export function logEnabled(level: LogLevel): boolean {
  const enabled = enabledLevel();
  return enabled !== null && LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(enabled);
}

/** An error as one line: its code and message, or whatever was thrown. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

function write(level: LogLevel, text: string): void {
  const path = logFile();
  if (!path || !logEnabled(level)) return;
  if (level === 'warn' || level === 'error') runWarnings()?.add();
  try {
    // 0600: a log names the user's files, panes and commands.
    appendFileSync(path, `${new Date().toISOString()} ${level} [thread ${threadId}] ${text}\n`, { mode: 0o600 });
  } catch {
    // A log that cannot be written must not take patterm down, and has nowhere to say so.
  }
}

export const log = {
  error: (text: string): void => write('error', text),
  warn: (text: string): void => write('warn', text),
  info: (text: string): void => write('info', text),
  debug: (text: string): void => write('debug', text),
};

/** What patterm always logged: one line at info. */
export function pattermLog(text: string): void {
  log.info(text);
}

/** How much an error patterm goes on past cost: nothing the user would miss (debug), or something they would (warn). */
export type IgnoredSeverity = 'debug' | 'warn';

/** A benign error patterm goes on past, logged at debug with what it was doing. */
export function logIgnored(context: string, error: unknown, severity: IgnoredSeverity = 'debug'): void {
  if (severity === 'warn') log.warn(`${context}: ${describeError(error)}`);
  else if (logEnabled('debug')) log.debug(`ignored: ${context}: ${describeError(error)}`);
}

/** An error patterm goes on past that lost input or data, or left a pane degraded: logged at warn, and counted. */
export function logDegraded(context: string, error: unknown): void {
  logIgnored(context, error, 'warn');
}

/** For `.catch(ignoreError('what was being done'))` on a benign failure: logs at debug, resolves to `fallback` (undefined by default). */
export function ignoreError(context: string): (error: unknown) => undefined;
export function ignoreError<T>(context: string, fallback: T): (error: unknown) => T;
export function ignoreError<T>(context: string, fallback?: T): (error: unknown) => T | undefined {
  return reportingWith(logIgnored, context, fallback);
}

/** As ignoreError, for a failure that costs the user something: logs at warn (logDegraded). */
export function warnError(context: string): (error: unknown) => undefined;
export function warnError<T>(context: string, fallback: T): (error: unknown) => T;
export function warnError<T>(context: string, fallback?: T): (error: unknown) => T | undefined {
  return reportingWith(logDegraded, context, fallback);
}

function reportingWith<T>(report: (context: string, error: unknown) => void, context: string, fallback?: T): (error: unknown) => T | undefined {
  return (error) => {
    report(context, error);
    return fallback;
  };
}

// Pure code (src/shared) reports the errors it goes on past through this sink.
setErrorSink(logIgnored);
