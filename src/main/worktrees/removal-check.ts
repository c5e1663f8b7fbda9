/**
 * Whether removing a worktree (and deleting its branch) would lose work, and
 * each reason it would. Anything that cannot be checked counts as a reason:
 * not knowing is not safe.
 */
import { realpath } from 'node:fs/promises';
import { git, runGit, splitNul } from './git.js';
import { pathExists } from './path-exists.js';
import { baseTip, branchCommit, NAMED_FILES, workingChanges, worktreePresent, type WorkingChanges } from './worktree-status.js';
import { describeOccupants, occupantsOf, type Occupants } from './occupants.js';
import type { WorktreeRecord } from './worktree-records.js';
import type { PaneInfo } from '../../shared/pane-types.js';

/** Commits named in a refusal: their subjects say what would be lost. */
const NAMED_COMMITS = 5;

export interface BranchStanding {
  /** The branch's commit, or null when the branch is gone. */
  commit: string | null;
  /** Commits on the branch that are on neither the base nor any remote-tracking branch (0 when squash-merged). */
  unmerged: number;
  /** The branch has commits of its own, but merging it into the base would change nothing: its change is there. */
  squashMerged: boolean;
  /** Subjects of the first unmerged commits. */
  subjects: string[];
}

export interface SafetyReport {
  /** The directory is there and git has it as a worktree. */
  present: boolean;
  changes: WorkingChanges | null;
  branch: BranchStanding | null;
  occupants: Occupants;
  /** Each reason removal would lose work; empty when it is safe. */
  reasons: string[];
}

export async function checkRemoval(record: WorktreeRecord, panes: PaneInfo[]): Promise<SafetyReport> {
  const report: SafetyReport = { present: false, changes: null, branch: null, occupants: { panes: [], processes: [] }, reasons: [] };
  const attempt = async (what: string, check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      report.reasons.push(`could not check ${what}, so removing it may not be safe: ${(error as Error).message}`);
    }
  };
  await attempt('whether the worktree is still there', async () => {
    report.present = await worktreePresent(record);
  });
  if (report.present) {
    await attempt('its uncommitted changes', async () => {
      const changes = (report.changes = await workingChanges(record.path));
      if (changes.dirty.length > 0) report.reasons.push(`${count(changes.dirty.length, 'uncommitted change')} to tracked files: ${named(changes.dirty)}`);
      if (changes.untracked.length > 0) report.reasons.push(`${count(changes.untracked.length, 'untracked file')}: ${named(changes.untracked)}`);
      if (changes.headBranch !== record.branch) await checkHead(record, changes, report.reasons);
    });
    await attempt('its submodules', () => checkSubmodules(record.path, report.reasons));
  }
  await attempt(`branch ${record.branch}`, async () => {
    report.branch = await branchStanding(record);
    if (report.branch.unmerged > 0) {
      const more = report.branch.unmerged > report.branch.subjects.length ? ', …' : '';
      report.reasons.push(
        `branch ${record.branch} has ${count(report.branch.unmerged, 'commit')} on neither ${baseName(record)} nor any upstream, and its change is not on ${baseName(record)} either (not squash-merged): ${report.branch.subjects.map((subject) => JSON.stringify(subject)).join(', ')}${more}`,
      );
    }
  });
  await attempt('what runs inside it', async () => {
    if (!(await pathExists(record.path))) return;
    report.occupants = occupantsOf(await realpath(record.path), panes);
    report.reasons.push(...describeOccupants(report.occupants));
  });
  return report;
}

export function baseName(record: WorktreeRecord): string {
  return record.baseRef ? record.baseRef.replace(/^refs\/(heads|remotes|tags)\//, '') : `base commit ${record.baseCommit.slice(0, 12)}`;
}

/** Where the branch stands against the base and every upstream; a squash merge counts as merged. */
export async function branchStanding(record: WorktreeRecord): Promise<BranchStanding> {
  const commit = await branchCommit(record);
  if (commit === null) return { commit, unmerged: 0, squashMerged: false, subjects: [] };
  const tip = await baseTip(record);
  const unmergedList = splitNul(await git(record.checkout, ['log', '-z', '--format=%s', commit, '--not', tip, '--remotes']));
  if (unmergedList.length === 0) return { commit, unmerged: 0, squashMerged: false, subjects: [] };
  if (await changeIsOnBase(record.checkout, tip, commit)) return { commit, unmerged: 0, squashMerged: true, subjects: [] };
  return { commit, unmerged: unmergedList.length, squashMerged: false, subjects: unmergedList.slice(0, NAMED_COMMITS) };
}

/**
 * A squash merge (or a rebase, or cherry-picks) leaves the branch's commits
 * off the base but its change on it. Merging the branch into the base then
 * changes nothing: the merged tree is the base's tree. A conflict, or any
 * difference, means some of the change is not there.
 */
async function changeIsOnBase(checkout: string, tip: string, branch: string): Promise<boolean> {
  // Exit code 1: the merge has conflicts.
  const merged = await runGit(checkout, ['merge-tree', '--write-tree', '--no-messages', tip, branch], { okCodes: [1] });
  if (merged.exitCode !== 0) return false;
  return merged.stdout.split('\n')[0] === (await git(checkout, ['rev-parse', `${tip}^{tree}`]));
}

/** A HEAD that left the branch (detached, or on a branch of its own) may hold commits no branch has. */
async function checkHead(record: WorktreeRecord, changes: WorkingChanges, reasons: string[]): Promise<void> {
  if (changes.headCommit === null) return;
  const orphaned = Number(await git(record.path, ['rev-list', '--count', 'HEAD', '--not', '--branches', '--remotes', '--tags', record.baseCommit]));
  if (orphaned > 0) {
    reasons.push(`its HEAD ${changes.headBranch === null ? 'is detached' : `is on ${changes.headBranch}`} with ${count(orphaned, 'commit')} that no branch, tag or upstream holds`);
  }
}

/**
 * A worktree's submodules keep their repositories inside the worktree's git
 * directory, which goes with it: commits made in a submodule and not pushed
 * would go too.
 */
async function checkSubmodules(path: string, reasons: string[]): Promise<void> {
  if (!(await pathExists(`${path}/.gitmodules`))) return;
  const listing = await git(path, ['submodule', 'status', '--recursive']);
  for (const line of listing.split('\n')) {
    // " <sha> <path> (<describe>)"; a leading "-" marks one that is not initialised (nothing to lose).
    const match = /^([ +U-])([0-9a-f]+) (.+?)(?: \(.*\))?$/.exec(line);
    if (!match || match[1] === '-') continue;
    const sub = `${path}/${match[3]}`;
    const unpushed = Number(await git(sub, ['rev-list', '--count', 'HEAD', '--branches', '--not', '--remotes']));
    if (unpushed > 0) reasons.push(`submodule ${match[3]} has ${count(unpushed, 'commit')} not pushed to its remote`);
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function named(paths: string[]): string {
  const shown = paths.slice(0, NAMED_FILES).join(', ');
  return paths.length > NAMED_FILES ? `${shown}, … (${paths.length - NAMED_FILES} more)` : shown;
}
