/**
 * Process-level lifecycle: turns SIGTERM, SIGHUP and SIGINT into one orderly
 * shutdown (spec §2: SIGTERM to every pane, and to every orphan a pane left
 * behind, SIGKILL after the grace window, then exit), and makes sure it runs at most once.
 */
import { DEFAULT_KILL_GRACE_MS, type Coordinator } from './coordinator.js';
import { OrphanAdoption } from './orphan-adoption.js';
import { startOrphanWatchdog } from './orphan-watchdog.js';

export interface LifecycleHooks {
  /** Runs before panes are killed (e.g. restore the host terminal). */
  beforeShutdown?: () => void | Promise<void>;
  /** Runs after panes are gone (e.g. remove the MCP socket). */
  afterShutdown?: () => void | Promise<void>;
}

const HANDLED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
/** Exit codes follow the shell convention 128 + signal number. */
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export class Lifecycle {
  private shutdownPromise: Promise<void> | null = null;
  /** Orphans that left their panes (null where patterm cannot be a subreaper: see its log). */
  private adoption: OrphanAdoption | null = null;

  constructor(
    private readonly coordinator: Coordinator,
    private readonly hooks: LifecycleHooks = {},
  ) {}

  install(): void {
    // Before any pane starts: only processes forked after this re-parent to patterm.
    this.adoption = OrphanAdoption.start();
    this.adoption?.ownChild(startOrphanWatchdog(this.coordinator.instanceId));
    for (const signal of HANDLED_SIGNALS) {
      process.on(signal, () => void this.shutdown(SIGNAL_EXIT_CODES[signal] ?? 1));
    }
  }

  shutdown(exitCode = 0): Promise<void> {
    this.shutdownPromise ??= (async () => {
      try {
        await this.hooks.beforeShutdown?.();
      } catch {
        // Keep going: the panes must die whatever happened above.
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
}
