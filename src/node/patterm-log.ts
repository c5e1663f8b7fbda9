/**
 * patterm's diagnostics, usable from every thread. Never stdout or stderr
 * while the TUI owns the terminal: lines go to the file named by PATTERM_LOG,
 * or nowhere. PATTERM_LOG_LEVEL (error, warn, info, debug) picks how much;
 * errors that patterm deliberately goes on past are logged at debug.
 *
 * Settings are read on every call, not once: a test (or a worker started
 * with a different environment) can point the log elsewhere at any time, and
 * the call sites are rare paths, not hot loops.
 */
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { setErrorSink } from '../shared/error-sink.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Without PATTERM_LOG_LEVEL: what patterm always said, not the errors it deliberately goes on past. */
const DEFAULT_LEVEL: LogLevel = 'info';

function enabledLevel(): LogLevel | null {
  if (!process.env.PATTERM_LOG) return null;
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
  const path = process.env.PATTERM_LOG;
  if (!path || !logEnabled(level)) return;
  try {
    appendFileSync(path, `${new Date().toISOString()} ${level} [thread ${threadId}] ${text}\n`);
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

/** An error patterm goes on past, logged at debug with what it was doing. */
export function logIgnored(context: string, error: unknown): void {
  if (logEnabled('debug')) log.debug(`ignored: ${context}: ${describeError(error)}`);
}

/** For `.catch(ignoreError('what was being done'))`: logs at debug, resolves to `fallback` (undefined by default). */
export function ignoreError(context: string): (error: unknown) => undefined;
export function ignoreError<T>(context: string, fallback: T): (error: unknown) => T;
export function ignoreError<T>(context: string, fallback?: T): (error: unknown) => T | undefined {
  return (error) => {
    logIgnored(context, error);
    return fallback;
  };
}

// Pure code (src/shared) reports the errors it goes on past through this sink.
setErrorSink(logIgnored);
