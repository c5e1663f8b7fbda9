/**
 * Where pure code reports an error it deliberately goes on past (a broken
 * listener, a failed dispose). src/shared cannot write a log itself; the Node
 * floor's logger (src/node/patterm-log.ts) installs itself here when loaded.
 */
export type ErrorSink = (context: string, error: unknown) => void;

let sink: ErrorSink = () => undefined;

export function setErrorSink(next: ErrorSink): void {
  sink = next;
}

export function reportIgnoredError(context: string, error: unknown): void {
  sink(context, error);
}
