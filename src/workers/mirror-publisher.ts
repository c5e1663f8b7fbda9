/**
 * When a pane worker publishes its grid to the coordinator's GridMirror
 * (src/shared/grid-mirror.ts): once the screen has settled, not per change.
 * A flooding pane's mirror would be stale again within a batch, and an agent's
 * spinner redraws every 80-120 ms, so publishing them would only cost a grid
 * and a JSON encode per redraw (a fifth of the CPU of 20 animating panes); their
 * readers use RPC. A pane quiet for SETTLE_MS is published once, and then read
 * without waking it.
 */
import { GridMirror } from '../shared/grid-mirror.js';
import type { GridSnapshot } from '../shared/pane-types.js';

/** Quiet this long, a screen counts as settled: longer than a spinner's step, far shorter than an agent's pause. */
const SETTLE_MS = 200;

export class MirrorPublisher {
  private readonly mirror: GridMirror;
  /** Output (or a resize or rebuild) since the screen last settled. */
  private changedSinceSettled = false;
  private lastChangeAt = 0;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  /** The generation of the last publish, fitting or not: no point encoding the same screen twice. */
  private attempted = Number.NaN;

  constructor(buffer: SharedArrayBuffer, idleThresholdMs: number) {
    this.mirror = new GridMirror(buffer);
    this.mirror.setIdleThreshold(idleThresholdMs);
    this.mirror.noteOutput(Date.now()); // the idle clock runs from the pane's start, as PaneService's does
  }

  /** Output arrived: a Date.now() and two Atomics stores per batch. */
  onOutput(): void {
    this.mirror.noteOutput(Date.now());
    this.changedSinceSettled = true;
    this.lastChangeAt = performance.now();
  }

  /** The screen may have changed without output (resize, emulator rebuild). */
  onChange(): void {
    this.mirror.markStale();
    this.changedSinceSettled = true;
    this.lastChangeAt = performance.now();
  }

  setIdleThreshold(ms: number): void {
    this.mirror.setIdleThreshold(ms);
  }

  /** Take before building a snapshot to offer(): a change while it is built then leaves the mirror stale. */
  generation(): number {
    return this.mirror.generation();
  }

  /**
   * Called after each screen tick: once nothing has changed for SETTLE_MS,
   * `computeGrid` runs (the caller's grid(), which offers the result). One timer
   * per quiet period, pushed back (refresh) by every tick while changes keep
   * coming, so a spinner's pane is not woken by it at all: firing and re-arming
   * it every SETTLE_MS was 3 % of 20 animating panes' CPU.
   */
  publishWhenSettled(computeGrid: () => void): void {
    if (!this.changedSinceSettled) return;
    if (this.settleTimer) {
      this.settleTimer.refresh();
      return;
    }
    // Always the full SETTLE_MS, counted from this tick (which follows the change): refresh() reuses it.
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (performance.now() - this.lastChangeAt < SETTLE_MS) {
        this.publishWhenSettled(computeGrid);
        return;
      }
      this.changedSinceSettled = false;
      if (this.wanted) computeGrid();
    }, SETTLE_MS);
  }

  /** The screen has settled since the last publish: publishing it now pays off. */
  get wanted(): boolean {
    return !this.changedSinceSettled && this.mirror.generation() !== this.attempted;
  }

  /**
   * A full grid() the worker computed anyway (on a tick, or for an RPC read),
   * built at `generation` with the output log's head at `streamHead`:
   * published when wanted, so a quiet pane's first RPC read after a change
   * also brings the mirror up to date.
   */
  offer(snapshot: GridSnapshot, generation: number, streamHead: number): void {
    if (!this.wanted) return;
    this.mirror.publish(snapshot, generation, streamHead);
    this.attempted = generation;
  }
}
