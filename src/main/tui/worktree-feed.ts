/**
 * What the TUI shows of the project's worktrees: the branch and change count
 * beside each pane that runs in one, the list the review palette offers, and,
 * once at start-up, the worktrees earlier runs left behind. Change counts come
 * from `git status`, re-read every few seconds while a pane works in a worktree.
 */
import type { Disposable } from '../../shared/events.js';
import type { PaneId } from '../../shared/pane-types.js';
import type { UiWorktree } from '../../shared/renderer-protocol.js';
import type { Worktrees } from '../worktrees/worktrees.js';
import { workingChanges } from '../worktrees/worktree-status.js';
import { pathExists } from '../worktrees/path-exists.js';
import { logIgnored } from '../../node/patterm-log.js';

/** How often change counts are re-read while a pane of this run works in a worktree. */
const REFRESH_INTERVAL_MS = 5000;
/** Leftover worktrees named in the start-up notice; the review palette lists them all. */
const NAMED_LEFTOVERS = 5;

export class WorktreeFeed implements Disposable {
  private worktrees: UiWorktree[] = [];
  private readonly byPane = new Map<PaneId, { branch: string; changes: number }>();
  private running: Promise<void> | null = null;
  private again = false;
  private announced = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly source: Worktrees,
    /** Whether the pane is still running (only those keep the counts fresh). */
    private readonly isRunning: (paneId: PaneId) => boolean,
    private readonly changed: () => void,
    private readonly notify: (text: string, level: 'info' | 'warning' | 'error') => void,
  ) {
    this.timer = setInterval(() => {
      if ([...this.byPane.keys()].some((paneId) => this.isRunning(paneId))) void this.refresh();
    }, REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  list(): UiWorktree[] {
    return this.worktrees;
  }

  forPane(paneId: PaneId): { branch: string; changes: number } | undefined {
    return this.byPane.get(paneId);
  }

  /** Reads the records and their change counts again; calls made meanwhile are folded into one more read. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.read()
      .catch((error) => logIgnored('reading the worktrees for the TUI', error))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      });
    return this.running;
  }

  private async read(): Promise<void> {
    const { records, problems } = await this.source.records({ kind: 'human' });
    const listed: UiWorktree[] = [];
    this.byPane.clear();
    for (const record of records) {
      const present = await pathExists(record.path);
      let changes = 0;
      if (present) {
        try {
          const status = await workingChanges(record.path);
          changes = status.dirty.length + status.untracked.length;
        } catch (error) {
          logIgnored(`reading the changes in worktree ${record.name}`, error);
        }
      }
      listed.push({ name: record.name, branch: record.branch, path: record.path, leftover: this.source.isLeftover(record), present, changes, failed: record.status === 'failed' });
      if (record.child.paneId !== null && !this.source.isLeftover(record)) this.byPane.set(record.child.paneId, { branch: record.branch, changes });
    }
    this.worktrees = listed;
    this.changed();
    if (!this.announced) {
      this.announced = true;
      this.announce(listed.filter((entry) => entry.leftover), problems);
    }
  }

  /** Start-up: the worktrees earlier runs left, so that none is forgotten (nothing is ever removed unasked). */
  private announce(leftovers: UiWorktree[], problems: string[]): void {
    for (const problem of problems) this.notify(problem, 'error');
    if (leftovers.length === 0) return;
    const names = leftovers.slice(0, NAMED_LEFTOVERS).map((entry) => entry.name).join(', ');
    const more = leftovers.length > NAMED_LEFTOVERS ? ` and ${leftovers.length - NAMED_LEFTOVERS} more` : '';
    const count = leftovers.length === 1 ? '1 worktree' : `${leftovers.length} worktrees`;
    this.notify(`${count} left from earlier runs: ${names}${more} · Ctrl-K "Review worktrees…" to look at or remove them`, 'warning');
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
