/**
 * Gives exited panes' workers up after a while: the retirement policy. The
 * mechanics (asking the worker for what it leaves, the frozen pane that
 * answers afterwards) are Pane.retire() and frozen-pane.ts.
 */
import { returnFreedMemorySoon } from '../process/allocator.js';
import type { Pane } from './pane.js';

/**
 * An exited pane keeps its worker this long, so reads right after the exit
 * (a notify_on_exit, the user looking) meet it as it was; then the worker is
 * retired and what it left answers instead (frozen-pane.ts): a worker is a
 * thread and tens of MiB, for every build or test run an orchestrator started that day.
 * A pane that cannot be retired yet (the TUI shows it, or a call to it is
 * pending) is tried again after as long.
 */
export const RETIRE_AFTER_EXIT_MS = 15_000;
/**
 * At most this many exited panes keep their workers; past it the oldest is
 * retired at once. An orchestrator running short commands in a loop would
 * otherwise hold a worker for every one of them until RETIRE_AFTER_EXIT_MS
 * (figures: docs/perf-notes.md). Eight covers a fan-out of test shards
 * finishing together; a frozen pane answers every read the same way.
 */
export const MAX_EXITED_WORKERS = 8;

export class PaneRetirement {
  /** See RETIRE_AFTER_EXIT_MS (tests shorten it; Infinity: never). */
  afterExitMs = RETIRE_AFTER_EXIT_MS;
  /** See MAX_EXITED_WORKERS. */
  maxExitedWorkers = MAX_EXITED_WORKERS;
  /** Exited panes whose workers are still alive, oldest exit first. */
  private readonly exited = new Set<Pane>();
  /** Each exited pane's pending retry, so a closed pane is let go at once (forget()). */
  private readonly timers = new Map<Pane, ReturnType<typeof setTimeout>>();

  /** `stillWanted`: false once the pane has left the tree, or patterm is shutting down. */
  constructor(private readonly stillWanted: (pane: Pane) => boolean) {}

  /** The pane's process has exited. */
  scheduleAfterExit(pane: Pane): void {
    if (!Number.isFinite(this.afterExitMs)) return;
    this.exited.add(pane);
    this.schedule(pane, this.afterExitMs);
    this.retireBeyondLimit();
  }

  /** Whether this pane is held here, as exited or by a pending timer (for tests). */
  holds(paneId: string): boolean {
    return [...this.exited, ...this.timers.keys()].some((pane) => pane.info.id === paneId);
  }

  /**
   * The pane has left the tree (closed): nothing here may keep it, its worker's
   * memory or its output lane alive until its timer would have fired.
   */
  forget(pane: Pane): void {
    this.exited.delete(pane);
    clearTimeout(this.timers.get(pane));
    this.timers.delete(pane);
  }

  private schedule(pane: Pane, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(pane);
      void this.tryRetire(pane).then((retired) => {
        if (!retired && this.exited.has(pane)) this.schedule(pane, delayMs);
      });
    }, delayMs);
    timer.unref();
    this.timers.set(pane, timer);
  }

  /**
   * Retires the oldest exited workers past the limit. One that cannot go yet
   * (shown in the TUI, a call pending) stays, and the next oldest goes in its
   * place; its own timer tries it again later.
   */
  private retireBeyondLimit(): void {
    let excess = this.exited.size - this.maxExitedWorkers;
    for (const pane of [...this.exited]) {
      if (excess <= 0) return;
      if (!this.stillWanted(pane) || !pane.retirable) {
        this.exited.delete(pane);
      } else if (!pane.retireBlocked) {
        void this.tryRetire(pane);
      } else continue;
      excess--;
    }
  }

  private async tryRetire(pane: Pane): Promise<boolean> {
    if (!this.stillWanted(pane) || !pane.retirable) {
      this.exited.delete(pane);
      return false;
    }
    const retired = await pane.retire();
    if (retired) returnFreedMemorySoon();
    if (retired || !pane.retirable) this.exited.delete(pane);
    return retired;
  }
}
