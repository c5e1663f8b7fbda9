/**
 * When a pane worker publishes its grid to the coordinator's GridMirror
 * (src/shared/grid-mirror.ts): once the screen has settled, not per change.
 * A flooding pane's mirror would be stale again within a batch, so publishing
 * it would only cost a JSON encode per tick; its readers use RPC. A quiet
 * pane is published once per quiet period, and then read without waking it.
 */
import { GridMirror } from '../shared/grid-mirror.js';
import type { GridSnapshot } from '../shared/pane-types.js';

export class MirrorPublisher {
  private readonly mirror: GridMirror;
  /** Output (or a resize or rebuild) since the last screen tick: the screen has not settled yet. */
  private changedSinceTick = false;
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
    this.changedSinceTick = true;
  }

  /** The screen may have changed without output (resize, emulator rebuild). */
  onChange(): void {
    this.mirror.markStale();
    this.changedSinceTick = true;
  }

  setIdleThreshold(ms: number): void {
    this.mirror.setIdleThreshold(ms);
  }

  /** Take before building a snapshot to offer(): a change while it is built then leaves the mirror stale. */
  generation(): number {
    return this.mirror.generation();
  }

  /**
   * Called on each screen tick. True: the screen changed since the previous
   * tick, so tick once more to see whether it has settled. False: it has, and
   * if `wanted` the caller computes grid(), which offers it.
   */
  tick(): boolean {
    const changed = this.changedSinceTick;
    this.changedSinceTick = false;
    return changed;
  }

  /** The screen has settled since the last publish: publishing it now pays off. */
  get wanted(): boolean {
    return !this.changedSinceTick && this.mirror.generation() !== this.attempted;
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
