/**
 * Where pure code reports an error it deliberately goes on past (a broken
 * listener, a failed dispose). src/shared cannot write a log itself; the Node
 * floor's logger (src/node/patterm-log.ts) installs itself here when loaded.
 */
export type ErrorSink = (context: string, error: unknown, severity?: 'debug' | 'warn') => void;

let sink: ErrorSink = () => undefined;

export function setErrorSink(next: ErrorSink): void {
  sink = next;
}

/** `severity` 'warn' for an error that costs the user something (patterm-log.ts says which is which). */
export function reportIgnoredError(context: string, error: unknown, severity: 'debug' | 'warn' = 'debug'): void {
  sink(context, error, severity);
}
