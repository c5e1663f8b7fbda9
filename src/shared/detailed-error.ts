/**
 * An error whose message is meant for whoever asked (a calling model, the
 * person at the TUI), with structured details that go along with it.
 */
export class DetailedError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
