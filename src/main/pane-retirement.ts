/**
 * Gives exited panes' workers up after a while: the retirement policy. The
 * mechanics (asking the worker for what it leaves, the frozen pane that
 * answers afterwards) are Pane.retire() and frozen-pane.ts.
 */
import type { Pane } from './pane.js';

/**
 * An exited pane keeps its worker this long, so reads right after the exit
 * (a notify_on_exit, the user looking) meet it as it was; then the worker is
 * retired and what it left answers instead (frozen-pane.ts): ~17 MiB and a
 * thread each, for every build or test run an orchestrator started that day.
 * A pane that cannot be retired yet (the TUI shows it, or a call to it is
 * pending) is tried again after as long.
 */
export const RETIRE_AFTER_EXIT_MS = 15_000;

export class PaneRetirement {
  /** See RETIRE_AFTER_EXIT_MS (tests shorten it; Infinity: never). */
  afterExitMs = RETIRE_AFTER_EXIT_MS;

  /** `stillWanted`: false once the pane has left the tree, or patterm is shutting down. */
  constructor(private readonly stillWanted: (pane: Pane) => boolean) {}

  /** The pane's process has exited. */
  scheduleAfterExit(pane: Pane): void {
    if (Number.isFinite(this.afterExitMs)) this.schedule(pane, this.afterExitMs);
  }

  private schedule(pane: Pane, delayMs: number): void {
    const timer = setTimeout(() => {
      if (!this.stillWanted(pane)) return;
      void pane.retire().then((retired) => {
        if (!retired && pane.retirable) this.schedule(pane, delayMs);
      });
    }, delayMs);
    timer.unref();
  }
}
