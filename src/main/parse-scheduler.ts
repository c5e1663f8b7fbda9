/**
 * Decides which flooding panes may have their worker parsing right now: at most
 * one per core, taking turns by quantum, round robin.
 *
 * Why: with 16 panes flooding on 2 cores, 16 pane workers were runnable at once
 * and the OS shared the cores between them in time slices. A keystroke's echo
 * then needed the coordinator thread and the quiet pane's worker to win a slot
 * against all of them, several times over (read, parse, dirty notice, grid
 * read): hundreds of milliseconds at p99. Parsing is CPU-bound either way, so
 * admitting one flooding pane per core costs no throughput, and everything
 * interactive finds a core almost free. Panes waiting for a turn keep their
 * output here (flow control pauses their PTY at the high watermark) and their
 * workers sit idle, so a grid read of a flooding pane is answered at once too.
 *
 * Small output (an echo, a prompt, a status line) never waits for a turn.
 */
import { availableParallelism } from 'node:os';
import type { InputActivity } from '../shared/input-activity.js';

export interface ParseClient {
  /** Called when this client was queued and is now granted a turn. */
  onTurn(): void;
  /** False for the pane the user is looking at: its output is what their typing is waiting for. */
  readonly yieldsToInput: boolean;
}

/** Output up to this size goes to the worker without a turn: interactive output must not queue behind floods. */
export const INTERACTIVE_BYTES = 4 * 1024;
/** Bytes a pane may send in one turn while others wait: ~6 ms of parsing, short enough for fair interleaving. */
export const TURN_QUANTUM_BYTES = 256 * 1024;
/**
 * After each keystroke in the TUI, flooding panes other than the focused one
 * get no parse turns for this long. It covers the echo and a program's redraw
 * (tui-echo-latency: p99 well under it once floods hold off), and costs
 * background floods at most this much per key while someone types.
 */
export const INPUT_YIELD_MS = 25;

export class ParseScheduler {
  private readonly holders = new Set<ParseClient>();
  private readonly waiting: ParseClient[] = [];
  private activity: InputActivity | null = null;
  private regrantTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly slots: number) {}

  /** Keystrokes recorded here make floods yield (the TUI's renderer records them); null: never yield. */
  yieldTo(activity: InputActivity | null): void {
    this.activity = activity;
  }

  /** True while floods hold off for the user's last keystroke. */
  get yielding(): boolean {
    if (!this.activity) return false;
    const remaining = INPUT_YIELD_MS - this.activity.sinceLastInput();
    if (remaining <= 0) return false;
    // Whoever queued meanwhile gets its turn when the window closes.
    this.regrantTimer ??= setTimeout(() => {
      this.regrantTimer = null;
      this.grant();
    }, remaining + 1);
    return true;
  }

  /** Takes a turn if one is free; otherwise queues the client (once) and returns false. */
  acquire(client: ParseClient): boolean {
    if (this.holders.has(client)) return true;
    const yielding = this.yielding;
    const eligible = (c: ParseClient) => !(yielding && c.yieldsToInput);
    if (this.holders.size < this.slots && eligible(client) && !this.waiting.some(eligible)) {
      this.holders.add(client);
      return true;
    }
    if (!this.waiting.includes(client)) this.waiting.push(client);
    return false;
  }

  get othersWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** Ends the client's turn (or its place in the queue) and hands the turn on. */
  release(client: ParseClient): void {
    const index = this.waiting.indexOf(client);
    if (index !== -1) this.waiting.splice(index, 1);
    if (!this.holders.delete(client)) return;
    this.grant();
  }

  /** Fills free slots from the queue in order, skipping clients that must yield to input for now. */
  private grant(): void {
    while (this.holders.size < this.slots) {
      const yielding = this.yielding;
      const index = this.waiting.findIndex((client) => !(yielding && client.yieldsToInput));
      if (index === -1) return;
      const [next] = this.waiting.splice(index, 1);
      this.holders.add(next);
      next.onTurn();
    }
  }
}

/** One per process: the cores are shared by every pane of the coordinator. */
export const parseScheduler = new ParseScheduler(Math.max(1, availableParallelism()));
