/**
 * A count of the warnings logged in this run, kept in one word of shared
 * memory that every thread holds: a thread that logs a warning adds to it
 * without a message to anyone, and the TUI's renderer wakes on the change
 * (Atomics.waitAsync) instead of polling for it.
 */
import type { Disposable } from '../shared/events.js';

/** Atomics.waitAsync, which Node 20 has and the ES2022 library does not declare. */
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

export class WarningCounter {
  private readonly word: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.word = new Int32Array(buffer, 0, 1);
  }

  get count(): number {
    return Atomics.load(this.word, 0);
  }

  add(): void {
    Atomics.add(this.word, 0, 1);
    Atomics.notify(this.word, 0);
  }

  /**
   * Calls `onChange` with the new count after each change, until disposed. A
   * pending wait keeps no event loop alive, so a watching thread still ends.
   */
  watch(onChange: (count: number) => void): Disposable {
    let seen = this.count;
    let stopped = false;
    const next = (): void => {
      if (stopped) return;
      const now = this.count;
      if (now !== seen) {
        seen = now;
        onChange(now);
      }
      const result = waitAsync(this.word, 0, seen);
      // Changed again since the load above: look at once, on a later turn, so a storm of warnings cannot recurse.
      if (!result.async) setImmediate(next);
      else void result.value.then(next);
    };
    next();
    return { dispose: () => void (stopped = true) };
  }
}
