/**
 * What is left of an exited pane once its worker is retired: its last screen,
 * the newest rows of its history and its output ring, answering the same
 * calls the worker did. An exited pane's worker holds its thread, its V8 heap
 * and ghostty's WASM memory, which never shrinks; an orchestrator
 * that runs a test suite or a build per task leaves dozens of them in a day's
 * session. Frozen, a pane keeps what read_output, wait_for_pattern and the
 * TUI read from it, at the size of the output itself.
 */
import type { PaneCalls, PaneRemains } from '../../shared/pane-protocol.js';
import type { CellFrame, GridSnapshot, HistorySlice, StreamChunk, WaitRequest, WaitResult } from '../../shared/pane-types.js';
import { ByteRing } from '../../shared/byte-ring.js';
import { unpackRows, type PackedRows } from '../../shared/compact-rows.js';
import { historyWindow } from '../../shared/history-window.js';
import { PatternWaiters } from '../../node/pattern-waiters.js';
import { patternMatcher } from '../../node/pattern-matcher.js';
import { styledRows } from '../../shared/styled-line.js';

/**
 * History a frozen pane keeps (scrollback and screen, newest last), in cells:
 * what read_output's history_lines and the TUI's history reader can still
 * show. A live pane's scrollback (DEFAULT_SCROLLBACK_BYTES of ghostty pages)
 * holds about the same number of cells at any width (figures:
 * docs/perf-notes.md). A budget in cells, not rows, with a little room over
 * the most seen, lets a retirement keep all of it at every width. Packed
 * (compact-rows.ts), a typical log's worth takes a few hundred KiB.
 */
export const FROZEN_HISTORY_CELLS = 336_000;

export class FrozenPane implements PaneCalls {
  /** The last grid, as the worker last gave it (strings live on this thread's heap). */
  private readonly lastGrid: GridSnapshot;
  private readonly screen: CellFrame;
  private readonly ring: ByteRing;
  private readonly frozenAt = performance.now();
  private readonly idleAtFreeze: number;
  private idleThresholdMs: number;
  private readonly waiters: PatternWaiters;
  /** The newest rows of the history. */
  private readonly historyRows: PackedRows;
  /** The number the worker gave the first of them: rows keep their numbers, so a history reader open across retirement stays put. */
  private readonly historyFirst: number;
  private readonly prompts: number[];

  /** Reads what a pane's worker leaves, through `call` (its WorkerClient's). */
  static async collect(call: <R>(read: (remote: PaneCalls) => Promise<R>) => Promise<R>): Promise<FrozenPane> {
    return new FrozenPane(await call((remote) => remote.remains(FROZEN_HISTORY_CELLS)));
  }

  /**
   * `remains` arrives by structured clone, so its buffers were allocated on
   * this thread. A buffer transferred from the worker would stay in the
   * allocator arena of the thread that made it, and keeping it would pin
   * that ended thread's arena, megabytes of it, while the pane stays frozen.
   */
  constructor(remains: PaneRemains) {
    this.lastGrid = remains.grid;
    this.screen = remains.cells;
    this.ring = ByteRing.holding(remains.ring);
    this.idleAtFreeze = remains.grid.idleMs;
    this.idleThresholdMs = remains.idleThresholdMs;
    this.historyRows = remains.history;
    this.historyFirst = remains.historyFirst;
    this.prompts = remains.promptRows;
    this.waiters = new PatternWaiters({ version: () => this.lastGrid.screenVersion, lines: () => this.lastGrid.lines }, patternMatcher());
  }

  /** The process has exited: its screen keeps the size it had. */
  async resize(): Promise<void> {}

  async grid(sinceVersion?: number, styled = false): Promise<GridSnapshot> {
    const grid = this.lastGrid;
    const idleMs = this.idleNow();
    const snapshot: GridSnapshot = { ...grid, lines: [...grid.lines], cursor: { ...grid.cursor }, idleMs, idle: idleMs >= this.idleThresholdMs };
    if (sinceVersion !== undefined) snapshot.changedRows = sinceVersion === grid.screenVersion ? [] : grid.lines.map((_, row) => row);
    if (styled) snapshot.styledLines = styledRows(this.screen);
    return snapshot;
  }

  /** A copy: frames are transferred to the renderer, which would take the original with them. */
  async cells(): Promise<CellFrame> {
    return copyFrame(this.screen);
  }

  async history(first: number, count: number): Promise<HistorySlice> {
    const total = this.historyRows.template.rows;
    const dropped = this.historyFirst;
    const { start, rows } = historyWindow(first, count, total, dropped);
    return { frame: unpackRows(this.historyRows, start, rows), first: dropped + start, total, dropped };
  }

  async stream(fromOffset: number, limit?: number): Promise<StreamChunk> {
    return { ...this.ring.read(fromOffset, limit), headOffset: this.ring.headOffset };
  }

  waitFor(request: WaitRequest): Promise<WaitResult> {
    return this.waiters.add(request);
  }

  async cancelWait(id: string): Promise<void> {
    this.waiters.cancel(id);
  }

  async idleMs(): Promise<number> {
    return this.idleNow();
  }

  async idleState(): Promise<{ idleMs: number; thresholdMs: number; idle: boolean }> {
    const idleMs = this.idleNow();
    return { idleMs, thresholdMs: this.idleThresholdMs, idle: idleMs >= this.idleThresholdMs };
  }

  async setIdleThreshold(ms: number): Promise<void> {
    this.idleThresholdMs = ms;
  }

  private idleNow(): number {
    return Math.round(this.idleAtFreeze + performance.now() - this.frozenAt);
  }

  async promptRows(): Promise<number[]> {
    return [...this.prompts];
  }

  async remains(): Promise<PaneRemains> {
    throw new Error('this pane was already retired');
  }
}

function copyFrame(frame: CellFrame): CellFrame {
  return { ...frame, cells: frame.cells.slice(), graphemes: { ...frame.graphemes }, cursor: { ...frame.cursor }, modes: { ...frame.modes } };
}
