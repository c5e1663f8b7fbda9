/**
 * When the PTY host tells a pane's worker of output it left in the output
 * lane unannounced (output-lane.ts, pty-host-service.ts): at most
 * DEFERRED_OUTPUT_MAX_MS after it was written, for every pane at once.
 *
 * Why: an unwatched agent's spinner redraws ~12 times a second, and waking
 * its worker for each redraw (a message's dispatch and an event-loop turn)
 * cost more than parsing it. Nobody sees those redraws as they come; whoever
 * reads the pane drains the lane first, so no reader sees stale output.
 */

/**
 * How late an unwatched pane's output may be parsed: a few spinner steps,
 * well under a person's notice or an agent pane's judging cadence
 * (agent-state-tracker.ts), and the same as the mirror's settle time (mirror-publisher.ts).
 */
export const DEFERRED_OUTPUT_MAX_MS = 200;

/** A pane with output it has not announced. */
export interface DeferringPane {
  announceDeferred(): void;
}

/** One timer for all the PTY host's panes: it wakes the host thread once per DEFERRED_OUTPUT_MAX_MS while any output waits, not once per pane. */
export class DeferredOutputSweep {
  private readonly due = new Set<DeferringPane>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly maxMs = DEFERRED_OUTPUT_MAX_MS) {}

  /** `pane` left output unannounced: it hears from the sweep within maxMs. */
  add(pane: DeferringPane): void {
    this.due.add(pane);
    this.timer ??= setTimeout(() => this.sweep(), this.maxMs);
  }

  forget(pane: DeferringPane): void {
    this.due.delete(pane);
  }

  private sweep(): void {
    this.timer = null;
    const due = [...this.due];
    this.due.clear();
    for (const pane of due) pane.announceDeferred();
  }
}
