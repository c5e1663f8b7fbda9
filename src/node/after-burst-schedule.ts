/**
 * Work done once a burst of pane endings has settled, not once per ending: a
 * whole orchestrator's children closing at once asks for one collection and
 * one trim, not a hundred.
 */

/** After the last of a burst of pane endings: their threads have ended by then, and one step serves the burst. */
export const BURST_SETTLED_MS = 1000;

/** One thing done after a burst of pane endings, delayMs after the last of them. */
export interface AfterBurstStep {
  readonly delayMs: number;
  readonly run: () => void;
}

/** Runs its steps after a burst of pane endings: each ending puts every step back to its full delay. */
export class AfterBurstSchedule {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly steps: readonly AfterBurstStep[]) {}

  /** Steps scheduled and not yet run. */
  get pending(): number {
    return this.timers.size;
  }

  /** A pane ended. */
  paneEnded(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const step of this.steps) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        step.run();
      }, step.delayMs);
      // Never what keeps patterm alive.
      timer.unref();
      this.timers.add(timer);
    }
  }
}
