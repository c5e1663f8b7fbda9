/**
 * Takes a pane worker off the CPU in the middle of a flood's batch while the
 * user types (or an orchestrator calls), until floods may run again.
 *
 * The parse scheduler stops handing floods new turns on input, but a turn
 * already handed on runs to its end. On two cores, two such workers then hold
 * both cores while a keystroke's echo goes through four threads in a row
 * (renderer, PTY host, the pane's worker, renderer), and a thread woken beside
 * a lowered but running flood can wait a whole scheduler tick for a core. So
 * a flood nobody watches is parsed in slices, and between two slices its
 * worker sleeps while floods hold off (InputActivity.floodHoldMs).
 *
 * A sleeping worker answers nobody: the pane wakes it (WorkerWake) before
 * every request or command, and the worker then finishes its batch awake.
 */
import type { InputActivity } from '../../shared/input-activity.js';
import type { WorkerWake } from '../../shared/worker-wake.js';

/** A flood is parsed in slices of this size: how long a keystroke may wait for the core a flood holds. */
export const PARK_SLICE_BYTES = 16 * 1024;

/** How PaneService feeds a batch: in slices of `sliceBytes`, with `pause()` between two of them. */
export interface SliceGate {
  readonly sliceBytes: number;
  pause(): void;
}

export class InputPark implements SliceGate {
  private armed = false;
  private seenWake = 0;

  constructor(
    private readonly activity: InputActivity,
    private readonly wake: WorkerWake,
    private readonly now: () => number = Date.now,
  ) {}

  /** Before each batch: whether it is a flood nobody watches, the only output that sleeps for input. */
  onBatch(unwatchedFlood: boolean): void {
    this.armed = unwatchedFlood;
    this.seenWake = this.wake.count;
  }

  /** Other output is parsed in one piece. */
  get sliceBytes(): number {
    return this.armed ? PARK_SLICE_BYTES : Infinity;
  }

  /** Between two slices: sleeps while floods hold off for input; a wake ends the sleep, and sleeping, for this batch. */
  pause(): void {
    while (this.armed) {
      const holdMs = this.activity.floodHoldMs(this.now());
      if (holdMs === 0) return;
      if (this.wake.sleep(this.seenWake, holdMs)) this.armed = false;
    }
  }
}
