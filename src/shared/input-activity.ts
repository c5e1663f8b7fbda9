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
/**
 * After each keystroke in the TUI or MCP call, floods nobody is looking at
 * hold off for this long. It covers the echo and a program's redraw, or the
 * call's own work (tui-echo-latency and mcp benches), and costs background
 * floods at most this much per input.
 */
export const INPUT_YIELD_MS = INPUT_BURST_GAP_MS;
/**
 * Within one unbroken burst of input (key repeat, an orchestrator polling in
 * a loop) floods hold off in cycles of this length and run in the last
 * FLOOD_SHARE_MS of each. A program blocked on a paused PTY stalls, so floods
 * must keep some share however busy the input is: a fifth of the time here.
 */
export const YIELD_CYCLE_MS = 250;
export const FLOOD_SHARE_MS = 50;

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

  /**
   * How much longer floods should hold off for the latest input: 0 when they
   * may run (no input for INPUT_YIELD_MS, or the floods' share of a long burst).
   */
  floodHoldMs(now: number = Date.now()): number {
    const sinceInput = this.sinceLastInput(now);
    if (sinceInput >= INPUT_YIELD_MS) return 0;
    const phase = this.sinceBurstStart(now) % YIELD_CYCLE_MS;
    const floodsTurnIn = YIELD_CYCLE_MS - FLOOD_SHARE_MS - phase;
    return floodsTurnIn <= 0 ? 0 : Math.min(INPUT_YIELD_MS - sinceInput, floodsTurnIn);
  }
}

function elapsed(at: number, now: number): number {
  const ms = now - at;
  return at === 0 || ms < 0 ? Infinity : ms;
}
