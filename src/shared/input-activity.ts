/**
 * When the user last typed, shared between the thread that sees keystrokes
 * (the TUI renderer) and the one that schedules flood parsing (the
 * coordinator), without a message per key. Times are Date.now() milliseconds:
 * the one clock every thread shares (each thread's performance.now() has its
 * own origin), and 1 ms resolution is plenty for a window of tens of ms.
 */
export class InputActivity {
  private readonly cell: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT)) {
    this.cell = new BigInt64Array(buffer);
  }

  markInput(at: number = Date.now()): void {
    Atomics.store(this.cell, 0, BigInt(at));
  }

  /**
   * Milliseconds since the user last typed; Infinity if never, or if the
   * wall clock stepped back past that moment (no stale window then).
   */
  sinceLastInput(now: number = Date.now()): number {
    const last = Number(Atomics.load(this.cell, 0));
    const elapsed = now - last;
    return last === 0 || elapsed < 0 ? Infinity : elapsed;
  }
}
