/**
 * What is left of an exited pane once its worker is retired: its last screen,
 * the newest rows of its history and its output ring, answering the same
 * calls the worker did. An exited pane's worker held ~17 MiB (its thread, its
 * V8 heap and ghostty's WASM memory, which never shrinks); an orchestrator
 * that runs a test suite or a build per task leaves dozens of them in a day's
 * session. Frozen, a pane keeps what read_output, wait_for_pattern and the
 * TUI read from it, at the size of the output itself.
 */
import type { PaneCalls } from '../shared/pane-protocol.js';
import type { CellFrame, GridSnapshot, HistorySlice, StreamChunk, WaitRequest, WaitResult } from '../shared/pane-types.js';
import { ByteRing } from '../shared/byte-ring.js';
import { PatternWaiters } from '../workers/pattern-waiters.js';

/**
 * History rows a frozen pane keeps (scrollback and screen, newest last): what
 * read_output's history_lines and the TUI's history reader can still show. At
 * 120 columns a full row is ~2 KiB, so this bounds a frozen pane near 4 MiB
 * even when its output filled the whole scrollback.
 */
export const FROZEN_HISTORY_ROWS = 2000;

export interface PaneRemains {
  grid: GridSnapshot;
  cells: CellFrame;
  /** The newest rows of the history (its `first` is where they began in the worker's history). */
  history: HistorySlice;
  /** Everything the output ring held. */
  ring: StreamChunk;
  idleThresholdMs: number;
}

export class FrozenPane implements PaneCalls {
  private readonly ring: ByteRing;
  private readonly frozenAt = performance.now();
  private readonly idleAtFreeze: number;
  private idleThresholdMs: number;
  private readonly waiters: PatternWaiters;
  private readonly rows: HistorySlice;

  /** Reads what a pane's worker leaves, through `call` (its WorkerClient's). */
  static async collect(call: <R>(read: (remote: PaneCalls) => Promise<R>) => Promise<R>): Promise<FrozenPane> {
    const [grid, cells, history, ring, idle] = await Promise.all([
      call((remote) => remote.grid()),
      call((remote) => remote.cells()),
      call((remote) => remote.history(-FROZEN_HISTORY_ROWS, FROZEN_HISTORY_ROWS)),
      call((remote) => remote.stream(0)),
      call((remote) => remote.idleState()),
    ]);
    return new FrozenPane({ grid, cells, history, ring, idleThresholdMs: idle.thresholdMs });
  }

  constructor(private readonly remains: PaneRemains) {
    this.ring = ByteRing.holding(remains.ring);
    this.idleAtFreeze = remains.grid.idleMs;
    this.idleThresholdMs = remains.idleThresholdMs;
    // Rows are renumbered from the oldest one kept, as the worker numbers from the oldest ghostty kept.
    this.rows = { ...remains.history, first: 0, total: remains.history.frame.rows };
    this.waiters = new PatternWaiters({ version: () => remains.grid.screenVersion, lines: () => remains.grid.lines });
  }

  /** The process has exited: its screen keeps the size it had. */
  async resize(): Promise<void> {}

  async grid(sinceVersion?: number): Promise<GridSnapshot> {
    const { grid } = this.remains;
    const idleMs = this.idleNow();
    const snapshot: GridSnapshot = { ...grid, lines: [...grid.lines], cursor: { ...grid.cursor }, idleMs, idle: idleMs >= this.idleThresholdMs };
    if (sinceVersion !== undefined) snapshot.changedRows = sinceVersion === grid.screenVersion ? [] : grid.lines.map((_, row) => row);
    return snapshot;
  }

  /** A copy: frames are transferred to the renderer, which would take the original with them. */
  async cells(): Promise<CellFrame> {
    return copyFrame(this.remains.cells);
  }

  async history(first: number, count: number): Promise<HistorySlice> {
    const { frame, total } = this.rows;
    const rows = Math.max(0, Math.min(count, total));
    const start = Math.max(0, Math.min(first < 0 ? total + first : first, total - rows));
    const words = frame.cols * 4;
    const graphemes: Record<number, string> = {};
    const from = start * frame.cols;
    for (const [index, text] of Object.entries(frame.graphemes)) {
      const at = Number(index) - from;
      if (at >= 0 && at < rows * frame.cols) graphemes[at] = text;
    }
    return {
      frame: { ...frame, rows, cells: frame.cells.slice(start * words, (start + rows) * words), graphemes, cursor: { ...frame.cursor }, modes: { ...frame.modes } },
      first: start,
      total,
    };
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

  async armTrap(): Promise<void> {
    throw new Error('this pane has exited and its emulator was retired; there is nothing to trap');
  }

  async simulateCrash(): Promise<void> {
    throw new Error('this pane has exited and its worker was retired; there is nothing to crash');
  }
}

function copyFrame(frame: CellFrame): CellFrame {
  return { ...frame, cells: frame.cells.slice(), graphemes: { ...frame.graphemes }, cursor: { ...frame.cursor }, modes: { ...frame.modes } };
}
