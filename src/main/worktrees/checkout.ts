/**
 * The project checkout a worktree is made from, and the commit it starts at:
 * each way this can be impossible (not a repository, git missing, no commits
 * yet, a base that names nothing) is a WorktreeError that says so.
 */
import { realpath } from 'node:fs/promises';
import { relative } from 'node:path';
import { git, GitError, GitMissingError } from './git.js';
import { WorktreeError } from './worktree-error.js';
import { ignoreError } from '../../node/patterm-log.js';

export interface Checkout {
  /** The top directory of the checkout (the project directory, or the repository around it). */
  top: string;
  /** Where the project directory sits inside it ('' at the top): a child starts at the same place in its worktree. */
  subdir: string;
}

export interface ResolvedBase {
  /** The full ref (refs/heads/main, refs/remotes/origin/main, refs/tags/v1), or null for a commit or detached HEAD. */
  ref: string | null;
  given: string;
  commit: string;
}

export async function findCheckout(projectDir: string): Promise<Checkout> {
  let top: string;
  try {
    top = await git(projectDir, ['rev-parse', '--show-toplevel']);
  } catch (error) {
    if (error instanceof GitMissingError) throw new WorktreeError(`${error.message}; nothing was spawned`);
    if (error instanceof GitError) {
      const said = error.stderr.trim();
      if (/not a git repository/i.test(said)) throw new WorktreeError(`the project directory ${projectDir} is not inside a git repository, so it cannot have worktrees (git init and a first commit make one); nothing was spawned`);
      throw new WorktreeError(`cannot use ${projectDir} for worktrees: ${error.message}; nothing was spawned`);
    }
    throw error;
  }
  if (top === '') throw new WorktreeError(`${projectDir} is in a bare git repository, which has no checkout to make worktrees from; nothing was spawned`);
  const subdir = relative(top, await realpath(projectDir));
  return { top, subdir: subdir.startsWith('..') ? '' : subdir };
}

/** The commit a new worktree starts at: `given`, or by default what the checkout has checked out. */
export async function resolveBase(top: string, given: string | undefined): Promise<ResolvedBase> {
  const head = await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okCodes: [1] });
  if (head === '') {
    throw new WorktreeError(`the repository at ${top} has no commits yet, so there is nothing to base a worktree on; make a first commit; nothing was spawned`);
  }
  if (given === undefined) {
    const branch = await git(top, ['symbolic-ref', '--quiet', 'HEAD'], { okCodes: [1] });
    return { ref: branch === '' ? null : branch, given: 'HEAD', commit: head };
  }
  // A leading "-" would be read as an option; no ref or commit starts with one.
  if (given.startsWith('-') || given.trim() === '') throw new WorktreeError(`base ${JSON.stringify(given)} is not a ref or a commit (try a branch such as "main", a tag or a commit id); nothing was spawned`, { base: given });
  const commit = await git(top, ['rev-parse', '--verify', '--quiet', `${given}^{commit}`], { okCodes: [1] });
  if (commit === '') throw new WorktreeError(`base ${JSON.stringify(given)} does not name a commit in ${top} (try a branch such as "main", a tag or a commit id); nothing was spawned`, { base: given });
  // A commit id or an expression such as HEAD~2 has no ref: the worktree is then judged against the commit.
  const ref = await git(top, ['rev-parse', '--symbolic-full-name', given]).catch(ignoreError(`finding the ref behind base ${given}`, ''));
  return { ref: ref.startsWith('refs/') ? ref : null, given, commit };
}
