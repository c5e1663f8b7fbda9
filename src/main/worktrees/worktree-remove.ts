/**
 * Removing a worktree patterm made: refused, with every reason, while it would
 * lose work (removal-check.ts); with force, the directory goes anyway but a
 * branch with unmerged commits stays. The branch is deleted only at the commit
 * that was checked, so a commit made meanwhile keeps it.
 */
import { dirname } from 'node:path';
import { git } from './git.js';
import { pathExists, removeIfEmpty } from './path-exists.js';
import { checkRemoval, type SafetyReport } from './removal-check.js';
import { deleteWorktreeRecord, type WorktreeRecord } from './worktree-records.js';
import { worktreesOnBranch } from './worktree-status.js';
import type { WorktreeContext } from './worktree-context.js';

export interface RemovalResult {
  name: string;
  removed: boolean;
  /** Why it was refused (or, when forced, what was overridden). */
  reasons: string[];
  forced: boolean;
  branch: string;
  branchDeleted: boolean;
  /** Why the branch stays, when it does. */
  branchKept: string | null;
  squashMerged: boolean;
  /** The directory was already gone (deleted by hand); git's record of it was pruned. */
  wasMissing: boolean;
}

export async function removeWorktree(context: WorktreeContext, record: WorktreeRecord, force: boolean): Promise<RemovalResult> {
  return context.lock.run(`remove:${record.name}`, async () => {
    const report = await checkRemoval(record, context.panes());
    const result: RemovalResult = {
      name: record.name,
      removed: false,
      reasons: report.reasons,
      forced: force,
      branch: record.branch,
      branchDeleted: false,
      branchKept: null,
      squashMerged: report.branch?.squashMerged ?? false,
      wasMissing: !report.present,
    };
    if (report.reasons.length > 0 && !force) return result;
    await removeDirectory(record, report, force);
    result.removed = true;
    await deleteBranch(record, report, result);
    await deleteWorktreeRecord(context.projectDir, record.name, context.stateHome);
    // The `<checkout>.worktrees` directory goes with its last worktree; one still holding anything stays.
    await removeIfEmpty(dirname(record.path));
    return result;
  });
}

async function removeDirectory(record: WorktreeRecord, report: SafetyReport, force: boolean): Promise<void> {
  if (!report.present) {
    // Deleted by hand (or never made, after a crash): git only has to forget it.
    await git(record.checkout, ['worktree', 'prune']);
    if (await pathExists(record.path)) {
      throw new Error(`${record.path} exists but git does not have it as a worktree of ${record.checkout}; patterm leaves a directory it cannot account for alone (remove it yourself if you are sure)`);
    }
    return;
  }
  // Without force git checks once more that nothing is uncommitted or untracked, at the moment it removes.
  // It refuses any worktree with submodules, so those need --force, after the checks above.
  const hasSubmodules = await pathExists(`${record.path}/.gitmodules`);
  await git(record.checkout, ['worktree', 'remove', ...(force || hasSubmodules ? ['--force'] : []), record.path]);
}

async function deleteBranch(record: WorktreeRecord, report: SafetyReport, result: RemovalResult): Promise<void> {
  const standing = report.branch;
  if (!standing) {
    result.branchKept = 'its standing could not be checked';
    return;
  }
  if (standing.commit === null) return; // already gone
  if (standing.unmerged > 0) {
    result.branchKept = `it has ${standing.unmerged} unmerged commit${standing.unmerged === 1 ? '' : 's'}`;
    return;
  }
  const elsewhere = await worktreesOnBranch(record.checkout, record.branch);
  if (elsewhere.length > 0) {
    result.branchKept = `it is checked out in ${elsewhere.join(', ')}`;
    return;
  }
  try {
    await git(record.checkout, ['update-ref', '-d', `refs/heads/${record.branch}`, standing.commit]);
    result.branchDeleted = true;
  } catch (error) {
    result.branchKept = `deleting it failed (it may have moved since it was checked): ${(error as Error).message}`;
  }
}
