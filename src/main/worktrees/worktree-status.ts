/**
 * What a worktree holds right now: whether it is still there, its changes,
 * what its HEAD is on, and how its branch stands against the base and its
 * upstream. Everything comes from git; nothing is cached.
 */
import { git, splitNul } from './git.js';
import { pathExists } from './path-exists.js';
import type { WorktreeRecord } from './worktree-records.js';

/** Changed files named in a refusal or a listing: enough to recognise, short enough to read. */
export const NAMED_FILES = 10;

export interface WorkingChanges {
  /** Tracked files with changes, staged or not (submodules with new commits or changes count). */
  dirty: string[];
  untracked: string[];
  /** The branch checked out in the worktree, or null when its HEAD is detached. */
  headBranch: string | null;
  headCommit: string | null;
  /** Its branch's upstream (after a `git push -u`), with the counts against it. */
  upstream: { name: string; ahead: number; behind: number } | null;
}

export interface AheadBehind {
  ahead: number;
  behind: number;
}

/** `git status` of the worktree, porcelain v2: changed, untracked, branch and upstream in one call. */
export async function workingChanges(path: string): Promise<WorkingChanges> {
  const fields = splitNul(await git(path, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all']));
  const changes: WorkingChanges = { dirty: [], untracked: [], headBranch: null, headCommit: null, upstream: null };
  let upstreamName: string | null = null;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field.startsWith('# branch.oid ')) changes.headCommit = field.slice('# branch.oid '.length).replace('(initial)', '') || null;
    else if (field.startsWith('# branch.head ')) {
      const head = field.slice('# branch.head '.length);
      changes.headBranch = head === '(detached)' ? null : head;
    } else if (field.startsWith('# branch.upstream ')) upstreamName = field.slice('# branch.upstream '.length);
    else if (field.startsWith('# branch.ab ')) {
      const [ahead, behind] = field.slice('# branch.ab '.length).split(' ');
      if (upstreamName) changes.upstream = { name: upstreamName, ahead: Number(ahead.slice(1)), behind: Number(behind.slice(1)) };
    } else if (field.startsWith('? ')) changes.untracked.push(field.slice(2));
    else if (field.startsWith('1 ')) changes.dirty.push(pathOf(field, 8));
    else if (field.startsWith('2 ')) {
      changes.dirty.push(pathOf(field, 9));
      i++; // the path it was renamed or copied from
    } else if (field.startsWith('u ')) changes.dirty.push(pathOf(field, 10));
  }
  return changes;
}

/** The path of a porcelain v2 entry: everything after its first `spaces` space-separated fields. */
function pathOf(field: string, spaces: number): string {
  let at = 0;
  for (let n = 0; n < spaces; n++) at = field.indexOf(' ', at) + 1;
  return field.slice(at);
}

/** The commit the base stands at now: its ref if it still resolves, else the commit the worktree started from. */
export async function baseTip(record: WorktreeRecord): Promise<string> {
  if (record.baseRef) {
    const tip = await git(record.checkout, ['rev-parse', '--verify', '--quiet', `${record.baseRef}^{commit}`], { okCodes: [1] });
    if (tip !== '') return tip;
  }
  return record.baseCommit;
}

export async function branchCommit(record: WorktreeRecord): Promise<string | null> {
  const commit = await git(record.checkout, ['rev-parse', '--verify', '--quiet', `refs/heads/${record.branch}^{commit}`], { okCodes: [1] });
  return commit === '' ? null : commit;
}

export async function aheadBehind(cwd: string, from: string, to: string): Promise<AheadBehind> {
  const [behind, ahead] = (await git(cwd, ['rev-list', '--left-right', '--count', `${from}...${to}`])).split(/\s+/).map(Number);
  return { ahead, behind };
}

/** Whether git still has the directory as a worktree of this repository (false once deleted by hand). */
export async function worktreePresent(record: WorktreeRecord): Promise<boolean> {
  if (!(await pathExists(record.path))) return false;
  const listing = await git(record.checkout, ['worktree', 'list', '--porcelain', '-z']);
  return splitNul(listing).some((field) => field === `worktree ${record.path}`);
}

/** Worktrees (paths) of the repository that have `branch` checked out. */
export async function worktreesOnBranch(checkout: string, branch: string): Promise<string[]> {
  const fields = splitNul(await git(checkout, ['worktree', 'list', '--porcelain', '-z']));
  const found: string[] = [];
  let current = '';
  for (const field of fields) {
    if (field.startsWith('worktree ')) current = field.slice('worktree '.length);
    else if (field === `branch refs/heads/${branch}`) found.push(current);
  }
  return found;
}

/** The branch's commits ahead of the base, and the base's ahead of it; null when the branch is gone. */
export async function branchAgainstBase(record: WorktreeRecord): Promise<AheadBehind | null> {
  const commit = await branchCommit(record);
  return commit === null ? null : aheadBehind(record.checkout, await baseTip(record), commit);
}
