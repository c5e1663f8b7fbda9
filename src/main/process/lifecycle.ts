/**
 * Process-level lifecycle: turns SIGTERM, SIGHUP and SIGINT into one orderly
 * shutdown (the terminal window is the lifetime boundary: SIGTERM to every
 * pane, and to every orphan a pane left behind, SIGKILL after the grace
 * window, then exit), and makes sure it runs at most once. Signals always win: no
 * caller's work runs on this thread (callers' patterns match on threads of
 * their own, pattern-matcher.ts), and if the shutdown still has not finished
 * by its deadline, or a second signal comes, patterm exits at once and the
 * orphan watchdog SIGKILLs every process of the instance.
 */
import { DEFAULT_KILL_GRACE_MS } from '../../node/process-reaper.js';
import { OrphanAdoption } from './orphan-adoption.js';
import { declareOwnChildPid } from '../../node/own-children.js';
import { startOrphanWatchdog } from './orphan-watchdog.js';
import { log, logDegraded } from '../../node/patterm-log.js';

/** What the lifecycle shuts down: the coordinator, seen only through what a shutdown needs. */
export interface ShutdownTarget {
  /** Marks every process of this instance, for the orphan watchdog. */
  readonly instanceId: string;
  /** SIGTERM to every pane, SIGKILL after the grace window; settles when all are gone. */
  shutdown(): Promise<void>;
}

export interface LifecycleHooks {
  /** Runs before panes are killed (e.g. restore the host terminal). */
  beforeShutdown?: () => void | Promise<void>;
  /** Runs after panes are gone (e.g. remove the MCP socket). */
  afterShutdown?: () => void | Promise<void>;
}

const HANDLED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
/** Exit codes follow the shell convention 128 + signal number. */
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
/**
 * Longest a shutdown may take before patterm exits anyway: the panes' grace
 * window, the SIGKILL that follows it and the threads' teardown, with room
 * to spare. Past it something hangs, and the watchdog finishes the job.
 */
export const SHUTDOWN_DEADLINE_MS = DEFAULT_KILL_GRACE_MS + 3000;

export class Lifecycle {
  private shutdownPromise: Promise<void> | null = null;
  /** Orphans that left their panes (null where patterm cannot be a subreaper: see its log). */
  private adoption: OrphanAdoption | null = null;

  constructor(
    private readonly coordinator: ShutdownTarget,
    private readonly hooks: LifecycleHooks = {},
  ) {}

  /** The orphan guards and the signal handlers, together. */
  install(): void {
    this.guardOrphans();
    this.installSignals();
  }

  /**
   * Patterm as the subreaper of its panes' orphans, and the watchdog that
   * kills what is left if patterm itself is killed. Before any pane starts:
   * only processes forked after this re-parent to patterm.
   */
  guardOrphans(): void {
    this.adoption = OrphanAdoption.start();
    declareOwnChildPid(startOrphanWatchdog(this.coordinator.instanceId));
  }

  installSignals(): void {
    for (const signal of HANDLED_SIGNALS) {
      process.on(signal, () => {
        const exitCode = SIGNAL_EXIT_CODES[signal] ?? 1;
        // A second signal (Ctrl-C again, the terminal closing during a quit) does not wait for the first.
        if (this.shutdownPromise) this.exitNow(exitCode, `${signal} during shutdown`);
        else void this.shutdown(exitCode);
      });
    }
  }

  shutdown(exitCode = 0): Promise<void> {
    this.shutdownPromise ??= (async () => {
      // Kept referenced: a shutdown stuck on a promise nothing will settle must still end in exitNow, with its exit code.
      setTimeout(() => this.exitNow(exitCode, `shutdown still running after ${SHUTDOWN_DEADLINE_MS} ms`), SHUTDOWN_DEADLINE_MS);
      try {
        await this.hooks.beforeShutdown?.();
      } catch (error) {
        // Keep going: the panes must die whatever happened above.
        logDegraded('the shutdown hook before killing the panes (the terminal may not be restored)', error);
      }
      const panesGone = this.coordinator.shutdown();
      await Promise.all([panesGone, this.adoption?.terminate('SIGTERM', DEFAULT_KILL_GRACE_MS, panesGone)]);
      try {
        await this.hooks.afterShutdown?.();
      } finally {
        process.exit(exitCode);
      }
    })();
    return this.shutdownPromise;
  }

  /** Exits without waiting for the panes: the orphan watchdog SIGKILLs every process of this instance. */
  private exitNow(exitCode: number, why: string): void {
    log.warn(`exiting at once (${why}); the watchdog ends what is left of the panes`);
    process.exit(exitCode);
  }
}
