/**
 * One worktree as worktree_list and the TUI show it: its record, and how it
 * stands now (present, changes, ahead/behind, who runs inside it). A check
 * that fails is reported in `problem`, not thrown: one broken worktree must
 * not hide the others.
 */
import { realpath } from 'node:fs/promises';
import type { PaneInfo } from '../../shared/pane-types.js';
import { occupantsOf } from './occupants.js';
import { baseName } from './removal-check.js';
import type { WorktreeRecord } from './worktree-records.js';
import { branchAgainstBase, workingChanges, worktreePresent } from './worktree-status.js';

export interface WorktreeReport {
  name: string;
  path: string;
  branch: string;
  base: string;
  baseCommit: string;
  createdAt: string;
  port: number;
  status: WorktreeRecord['status'];
  failure: string | null;
  child: WorktreeRecord['child'];
  /** Made by an earlier run of patterm. */
  leftover: boolean;
  /** The directory is there and git has it as a worktree (false once deleted by hand). */
  present: boolean;
  dirty: number;
  untracked: number;
  /** Branch commits not on the base, and base commits not on the branch; null when the branch is gone. */
  ahead: number | null;
  behind: number | null;
  upstream: { name: string; ahead: number; behind: number } | null;
  /** The branch checked out in it now, when it is not its own (the agent switched), or null. */
  otherHead: string | null;
  panes: Array<{ id: string; name: string }>;
  problem: string | null;
}

export async function describeWorktree(record: WorktreeRecord, panes: PaneInfo[], leftover: boolean): Promise<WorktreeReport> {
  const report: WorktreeReport = {
    name: record.name,
    path: record.path,
    branch: record.branch,
    base: baseName(record),
    baseCommit: record.baseCommit,
    createdAt: record.createdAt,
    port: record.port,
    status: record.status,
    failure: record.failure ?? null,
    child: record.child,
    leftover,
    present: false,
    dirty: 0,
    untracked: 0,
    ahead: null,
    behind: null,
    upstream: null,
    otherHead: null,
    panes: [],
    problem: null,
  };
  try {
    report.present = await worktreePresent(record);
    if (report.present) {
      const changes = await workingChanges(record.path);
      report.dirty = changes.dirty.length;
      report.untracked = changes.untracked.length;
      report.upstream = changes.upstream;
      report.otherHead = changes.headBranch === record.branch ? null : (changes.headBranch ?? '(detached HEAD)');
      report.panes = occupantsOf(await realpath(record.path), panes).panes.map(({ id, name }) => ({ id, name }));
    }
    const standing = await branchAgainstBase(record);
    if (standing) Object.assign(report, standing);
  } catch (error) {
    report.problem = (error as Error).message;
  }
  return report;
}
