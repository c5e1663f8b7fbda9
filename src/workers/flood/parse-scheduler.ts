/**
 * Decides which flooding panes may have their worker parsing right now: at most
 * one per core, taking turns by quantum, round robin.
 *
 * Why: with many panes flooding on few cores, every pane worker was runnable
 * at once and the OS shared the cores between them in time slices. A keystroke's
 * echo then needed the coordinator thread and the quiet pane's worker to win a
 * slot against all of them, several times over (read, parse, dirty notice, grid
 * read), and its tail latency grew with the number of floods. Parsing is CPU-bound either way, so
 * admitting one flooding pane per core costs no throughput, and everything
 * interactive finds a core almost free. Panes waiting for a turn keep their
 * output here (flow control pauses their PTY at the high watermark) and their
 * workers sit idle, so a grid read of a flooding pane is answered at once too.
 *
 * Small output (an echo, a prompt, a status line) never waits for a turn.
 *
 * Interactive input comes first: for a moment after a TUI keystroke, an MCP
 * call, or an echo in a pane someone waits on (InputActivity), floods other
 * than the shown or awaited pane get no new turns and stop reading, so the
 * cores are free for the work the user or orchestrator is waiting on
 * (the tui-echo-latency and mcp benches watch it). A long unbroken burst
 * of input still leaves floods a share of every cycle, on one core. While a
 * caller waits on a pane's screen (wait_for_pattern), floods keep to one core
 * too: the output it waits for can come at any moment.
 */
import { availableParallelism } from 'node:os';
import { INPUT_YIELD_MS, InputActivity } from '../../shared/input-activity.js';

export interface ParseClient {
  /** Called when this client was queued and is now granted a turn. */
  onTurn(): void;
  /** False for the pane the user is looking at: its output is what their typing is waiting for. */
  readonly yieldsToInput: boolean;
}

/** Output up to this size goes to the worker without a turn: interactive output must not queue behind floods. */
export const INTERACTIVE_BYTES = 4 * 1024;
/** Bytes a pane may send in one turn while others wait: a few milliseconds of parsing, short enough for fair interleaving. */
export const TURN_QUANTUM_BYTES = 256 * 1024;
/**
 * While input is recent (the floods' share of a burst), or a caller waits on
 * a pane's screen, floods hold at most this many parse slots, so a core stays
 * free for what the input waits on: an MCP call wakes the client, `patterm
 * mcp-stdio` and the coordinator in turn; an awaited pane's output wakes the
 * PTY host, the pane's worker and the coordinator. One slot rather than two
 * cut the tail of wait reactions and MCP reads (figures: docs/perf-notes.md).
 */
export const FLOOD_SLOTS_DURING_INPUT = 1;

export class ParseScheduler {
  private readonly holders = new Set<ParseClient>();
  private readonly waiting: ParseClient[] = [];
  /** Clients whose screen a caller waits on (see FLOOD_SLOTS_DURING_INPUT). */
  private readonly awaited = new Set<ParseClient>();
  private regrantTimer: ReturnType<typeof setTimeout> | null = null;

  /** `activity`: where interactive input is recorded; floods yield to it (see `yielding`). */
  constructor(
    readonly slots: number,
    readonly activity: InputActivity = new InputActivity(),
  ) {}

  /** True while floods hold off for the latest input. */
  get yielding(): boolean {
    const holdMs = this.activity.floodHoldMs();
    if (holdMs === 0) return false;
    // Whoever queued meanwhile gets its turn when the window closes or the floods' share begins.
    this.regrantIn(holdMs);
    return true;
  }

  private regrantIn(ms: number): void {
    this.regrantTimer ??= setTimeout(() => {
      this.regrantTimer = null;
      this.grant();
    }, ms + 1);
  }

  /** Takes a turn if one is free; otherwise queues the client (once) and returns false. */
  acquire(client: ParseClient): boolean {
    if (this.holders.has(client)) return true;
    const eligible = this.eligibility();
    if (this.holders.size < this.slots && eligible(client) && !this.waiting.some(eligible)) {
      this.holders.add(client);
      return true;
    }
    if (!this.waiting.includes(client)) this.waiting.push(client);
    return false;
  }

  /** Input came within INPUT_YIELD_MS: floods that yield to it keep to their parse's pace (PtyProcess.skimBacklog). */
  get inputRecent(): boolean {
    return this.activity.sinceLastInput() < INPUT_YIELD_MS;
  }

  get othersWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** A caller started (true) or stopped (false) waiting on this client's screen. */
  setAwaited(client: ParseClient, awaited: boolean): void {
    if (awaited) this.awaited.add(client);
    else if (this.awaited.delete(client) && this.awaited.size === 0) this.grant();
  }

  /** The client is gone for good: out of the turns, the queue and the awaited. */
  remove(client: ParseClient): void {
    const wasAwaited = this.awaited.delete(client);
    this.release(client);
    if (wasAwaited && this.awaited.size === 0) this.grant();
  }

  /** Ends the client's turn (or its place in the queue) and hands the turn on. */
  release(client: ParseClient): void {
    const index = this.waiting.indexOf(client);
    if (index !== -1) this.waiting.splice(index, 1);
    if (!this.holders.delete(client)) return;
    this.grant();
  }

  /**
   * Who may take a free slot now: a client that yields to input may not while
   * floods hold off for it, nor beyond FLOOD_SLOTS_DURING_INPUT while input is
   * recent or a caller waits; the shown or awaited pane always may.
   */
  private eligibility(): (client: ParseClient) => boolean {
    if (this.yielding) return (client) => !client.yieldsToInput;
    const sinceInput = this.activity.sinceLastInput();
    const inputRecent = sinceInput < INPUT_YIELD_MS;
    if (!inputRecent && this.awaited.size === 0) return () => true;
    let floods = 0;
    for (const holder of this.holders) if (holder.yieldsToInput) floods++;
    if (floods < FLOOD_SLOTS_DURING_INPUT) return () => true;
    // The other slots, once input is no longer recent; a wait's end grants them itself (setAwaited).
    if (inputRecent && this.awaited.size === 0) this.regrantIn(INPUT_YIELD_MS - sinceInput);
    return (client) => !client.yieldsToInput;
  }

  /** Fills free slots from the queue in order, skipping clients that must yield to input for now. */
  private grant(): void {
    while (this.holders.size < this.slots) {
      const index = this.waiting.findIndex(this.eligibility());
      if (index === -1) return;
      const [next] = this.waiting.splice(index, 1);
      this.holders.add(next);
      next.onTurn();
    }
  }
}

/** One per coordinator, in its PTY host: one slot per core, since the cores are shared by every pane. */
export function coreParseScheduler(activity: InputActivity): ParseScheduler {
  return new ParseScheduler(Math.max(1, availableParallelism()), activity);
}
