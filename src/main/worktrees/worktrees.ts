/**
 * The worktree room's front door for one patterm run: spawns prepare a
 * worktree here, the MCP tools and the TUI list, diff and remove them here,
 * and every operation checks who may act on which worktree.
 */
import { KeyedLock } from '../../node/keyed-lock.js';
import type { PaneInfo } from '../../shared/pane-types.js';
import { createWorktree, whyNameInUse, type PreparedWorktree, type WorktreeRequest } from './worktree-create.js';
import { diffWorktree, type WorktreeDiff } from './worktree-diff.js';
import { listWorktreeRecords, readWorktreeRecord, writeWorktreeRecord, type WorktreeRecord } from './worktree-records.js';
import { removeWorktree, type RemovalResult } from './worktree-remove.js';
import { describeWorktree, type WorktreeReport } from './worktree-report.js';
import { DEFAULT_WORKTREE_SETTINGS, type WorktreeSettings } from './worktree-settings.js';
import { WorktreeError } from './worktree-error.js';
import type { WorktreeContext } from './worktree-context.js';
import { worktreePresent } from './worktree-status.js';

/** Who asks: the human at the TUI may act on any worktree; an orchestrator on its own session's in this run. */
export type WorktreeActor = { kind: 'human' } | { kind: 'session'; sessionId: string };

export interface WorktreesOptions {
  projectDir: string;
  instanceId: string;
  settings?: WorktreeSettings;
  stateHome?: string;
  panes(): PaneInfo[];
}

export class Worktrees {
  private readonly context: WorktreeContext;

  constructor(options: WorktreesOptions) {
    this.context = {
      projectDir: options.projectDir,
      instanceId: options.instanceId,
      settings: options.settings ?? DEFAULT_WORKTREE_SETTINGS,
      stateHome: options.stateHome,
      lock: new KeyedLock<string>(),
      panes: options.panes,
    };
  }

  get projectDir(): string {
    return this.context.projectDir;
  }

  /** Makes the worktree a child starts in (worktree-create.ts); throws WorktreeError saying what stopped it. */
  prepare(request: WorktreeRequest): Promise<PreparedWorktree> {
    return createWorktree(this.context, request);
  }

  /** Why worktree `name` is taken (a record, its branch or its directory exists), or null when it is free. */
  whyNameInUse(name: string): Promise<string | null> {
    return whyNameInUse(this.context, name);
  }

  /** The child started: its pane (and, for a child that started a session, that session) go in the record. */
  async attachPane(name: string, pane: Pick<PaneInfo, 'id' | 'sessionId'>): Promise<WorktreeRecord | null> {
    return this.context.lock.run(`remove:${name}`, async () => {
      const record = await this.read(name);
      if (!record) return null;
      const updated = { ...record, child: { ...record.child, paneId: pane.id }, owner: { ...record.owner, sessionId: pane.sessionId } };
      await writeWorktreeRecord(this.context.projectDir, updated, this.context.stateHome);
      return updated;
    });
  }

  read(name: string): Promise<WorktreeRecord | null> {
    return readWorktreeRecord(this.context.projectDir, name, this.context.stateHome);
  }

  /** Whether `actor` may see and act on the worktree. */
  mayAct(actor: WorktreeActor, record: WorktreeRecord): boolean {
    return actor.kind === 'human' || (record.owner.instanceId === this.context.instanceId && record.owner.sessionId === actor.sessionId);
  }

  /** Made by an earlier run of patterm (or left by a crash): start-up lists these for review. */
  isLeftover(record: WorktreeRecord): boolean {
    return record.owner.instanceId !== this.context.instanceId;
  }

  /** The records `actor` may act on, and how many it may not. */
  async records(actor: WorktreeActor): Promise<{ records: WorktreeRecord[]; others: number; problems: string[] }> {
    const { records, problems } = await listWorktreeRecords(this.context.projectDir, this.context.stateHome);
    const mine = records.filter((record) => this.mayAct(actor, record));
    return { records: mine, others: records.length - mine.length, problems };
  }

  async list(actor: WorktreeActor): Promise<{ worktrees: WorktreeReport[]; others: number; problems: string[] }> {
    const { records, others, problems } = await this.records(actor);
    const panes = this.context.panes();
    const worktrees = await Promise.all(records.map((record) => describeWorktree(record, panes, this.isLeftover(record))));
    return { worktrees, others, problems };
  }

  async diff(actor: WorktreeActor, name: string, statOnly: boolean): Promise<{ record: WorktreeRecord; diff: WorktreeDiff }> {
    const record = await this.own(actor, name);
    if (!(await worktreePresent(record))) {
      throw new WorktreeError(`worktree ${name} is gone from ${record.path} (deleted by hand?); its branch ${record.branch} may still hold its commits (git log ${record.branch}); worktree_remove tidies up the rest`);
    }
    return { record, diff: await diffWorktree(record, statOnly) };
  }

  async remove(actor: WorktreeActor, name: string, force: boolean): Promise<RemovalResult> {
    return removeWorktree(this.context, await this.own(actor, name), force);
  }

  /** The record of `name`, if `actor` may act on it; otherwise a WorktreeError that says why not. */
  private async own(actor: WorktreeActor, name: string): Promise<WorktreeRecord> {
    const record = await this.read(name);
    if (!record) throw new WorktreeError(`patterm has no worktree named ${JSON.stringify(name)} in this project; worktree_list shows the ones you can use`);
    if (!this.mayAct(actor, record)) {
      throw new WorktreeError(
        `worktree ${JSON.stringify(name)} belongs to ${this.isLeftover(record) ? 'an earlier run of patterm' : 'another session'}; an orchestrator acts only on its own session's worktrees (the user can review every worktree from the command palette)`,
      );
    }
    return record;
  }
}
