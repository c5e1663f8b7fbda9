/**
 * When a pane worker publishes its grid to the coordinator's GridMirror
 * (src/shared/grid-mirror.ts): once the screen has settled, not per change.
 * A flooding pane's mirror would be stale again within a batch, and an agent's
 * spinner redraws several times a second, so publishing them would only cost a
 * grid and a JSON encode per redraw, a large share of animating panes' CPU; their
 * readers use RPC. A pane quiet for SETTLE_MS is published once, and then read
 * without waking it.
 */
import { GridMirror } from '../shared/grid-mirror.js';
import type { GridSnapshot } from '../shared/pane-types.js';

/** Quiet this long, a screen counts as settled: longer than a spinner's step, far shorter than an agent's pause. */
const SETTLE_MS = 200;
/**
 * While a screen keeps changing, the check for quiet backs off, doubling up to
 * this: a spinner's pane is woken ~0.6 times a second by it instead of 5
 * (Node wakes a thread at a timer's first expiry even after refresh()). A
 * screen that has kept changing for seconds is then published at most this
 * much late; until then reads take the RPC path, as they do for any busy pane.
 */
const MAX_SETTLE_CHECK_MS = 1600;

export class MirrorPublisher {
  private readonly mirror: GridMirror;
  /** Output (or a resize or rebuild) since the screen last settled. */
  private changedSinceSettled = false;
  /** A change came after the settle timer was armed: the screen was not quiet for the whole wait. */
  private changedSinceArmed = false;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private settleCheckMs = SETTLE_MS;
  /** How many times the check for quiet ran (for tests: it should back off). */
  settleChecks = 0;
  /** The generation of the last publish, fitting or not: no point encoding the same screen twice. */
  private attempted = Number.NaN;

  /**
   * `outputWaiting`: whether output this worker has not taken yet waits for
   * it (an unwatched pane's output lane, drained at intervals): the screen
   * has changed then, though no change has reached this publisher.
   */
  constructor(
    buffer: SharedArrayBuffer,
    idleThresholdMs: number,
    private readonly outputWaiting: () => boolean = () => false,
  ) {
    this.mirror = new GridMirror(buffer);
    this.mirror.setIdleThreshold(idleThresholdMs);
    this.mirror.noteOutput(Date.now()); // the idle clock runs from the pane's start, as PaneService's does
  }

  /** Output arrived: a Date.now() and two Atomics stores per batch. */
  onOutput(): void {
    this.mirror.noteOutput(Date.now());
    this.changedSinceSettled = true;
    this.changedSinceArmed = true;
  }

  /** The screen may have changed without output (resize, emulator rebuild). */
  onChange(): void {
    this.mirror.markStale();
    this.changedSinceSettled = true;
    this.changedSinceArmed = true;
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
   * `computeGrid` runs (the caller's grid(), which offers the result). One
   * timer at a time; while changes keep coming it checks less and less often
   * (MAX_SETTLE_CHECK_MS), since each check wakes the worker.
   */
  publishWhenSettled(computeGrid: () => void): void {
    if (this.settleTimer || !this.changedSinceSettled) return;
    // Armed at a tick, which follows the change: no change until it fires means SETTLE_MS of quiet.
    // (Not a clock comparison: Node may fire a timer a fraction of a millisecond early by performance.now().)
    this.changedSinceArmed = false;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      this.settleChecks++;
      if (this.changedSinceArmed || this.outputWaiting()) {
        this.settleCheckMs = Math.min(MAX_SETTLE_CHECK_MS, this.settleCheckMs * 2);
        this.publishWhenSettled(computeGrid);
        return;
      }
      this.settleCheckMs = SETTLE_MS;
      this.changedSinceSettled = false;
      if (this.wanted) computeGrid();
    }, this.settleCheckMs);
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
