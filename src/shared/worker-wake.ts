/**
 * A count the coordinator bumps before it asks a pane worker anything, so a
 * worker asleep between slices of a flood (src/workers/flood/input-park.ts)
 * wakes at once to answer instead of when the input's window closes.
 */
export class WorkerWake {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.cell = new Int32Array(buffer);
  }

  /** Someone is about to ask the worker something: end its sleep, if it sleeps. */
  wake(): void {
    Atomics.add(this.cell, 0, 1);
    Atomics.notify(this.cell, 0);
  }

  /** How many wakes so far: what a sleep compares against. */
  get count(): number {
    return Atomics.load(this.cell, 0);
  }

  /**
   * Blocks the calling thread for up to `ms`, unless a wake comes after the
   * one counted as `seen` (or came already). True when woken. Only where
   * blocking a thread is allowed: a worker.
   */
  sleep(seen: number, ms: number): boolean {
    return Atomics.wait(this.cell, 0, seen, ms) !== 'timed-out';
  }
}
