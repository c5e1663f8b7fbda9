/**
 * When the user (or an orchestrator) last asked for something interactive,
 * shared between the threads that see requests (the TUI renderer for keys,
 * the coordinator for MCP calls) and the one that schedules flood parsing,
 * without a message per key. Times are Date.now() milliseconds: the one clock
 * every thread shares (each thread's performance.now() has its own origin),
 * and 1 ms resolution is plenty for windows of tens of milliseconds.
 *
 * Inputs closer together than INPUT_BURST_GAP_MS form one burst; the burst's
 * start lets the scheduler keep a long burst (key repeat, an orchestrator
 * polling in a loop) from starving every flood.
 */
export const INPUT_BURST_GAP_MS = 25;

const LAST = 0;
const BURST_START = 1;

export class InputActivity {
  private readonly cells: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT)) {
    this.cells = new BigInt64Array(buffer);
  }

  markInput(at: number = Date.now()): void {
    const last = Number(Atomics.load(this.cells, LAST));
    if (last === 0 || at - last >= INPUT_BURST_GAP_MS || at < last) Atomics.store(this.cells, BURST_START, BigInt(at));
    Atomics.store(this.cells, LAST, BigInt(at));
  }

  /**
   * Milliseconds since the last input; Infinity if never, or if the wall
   * clock stepped back past that moment (no stale window then).
   */
  sinceLastInput(now: number = Date.now()): number {
    return elapsed(Number(Atomics.load(this.cells, LAST)), now);
  }

  /** Milliseconds since the current burst of input began (see sinceLastInput for Infinity). */
  sinceBurstStart(now: number = Date.now()): number {
    return elapsed(Number(Atomics.load(this.cells, BURST_START)), now);
  }
}

function elapsed(at: number, now: number): number {
  const ms = now - at;
  return at === 0 || ms < 0 ? Infinity : ms;
}
