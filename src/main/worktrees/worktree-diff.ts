/**
 * The change a worktree holds against the commit it started from: committed,
 * staged, unstaged and untracked (not ignored) files alike. Untracked files are
 * added to a private copy of the index, never to the worktree's own, so the
 * agent working there sees no change to its staging area.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, runGit } from './git.js';
import { pathExists } from './path-exists.js';
import type { WorktreeRecord } from './worktree-records.js';
import { logIgnored } from '../../node/patterm-log.js';

export interface WorktreeDiff {
  /** `git diff --stat` of the whole change. */
  stat: string;
  /** The patch, or '' when only the stat was asked for. */
  patch: string;
  files: number;
}

export async function diffWorktree(record: WorktreeRecord, statOnly: boolean): Promise<WorktreeDiff> {
  const scratch = await mkdtemp(join(tmpdir(), 'patterm-worktree-diff-'));
  try {
    const index = join(scratch, 'index');
    const ownIndex = await git(record.path, ['rev-parse', '--path-format=absolute', '--git-path', 'index']);
    // Starting from the worktree's index keeps git's record of unchanged files, so the add below reads only what changed.
    if (await pathExists(ownIndex)) await copyFile(ownIndex, index);
    const env = { GIT_INDEX_FILE: index };
    await git(record.path, ['add', '--all', '--', '.'], { env });
    const base = ['diff', '--cached', '--no-color', '--no-ext-diff', '--submodule=short', record.baseCommit];
    const stat = await git(record.path, [...base, '--stat=200'], { env });
    const names = await git(record.path, [...base, '--name-only', '-z'], { env });
    // The patch exactly as git wrote it, final newline included, so that it applies as it is.
    const patch = statOnly ? '' : (await runGit(record.path, [...base, '--patch'], { env })).stdout;
    return { stat, patch, files: names.split('\0').filter((name) => name !== '').length };
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch((error) => logIgnored(`removing ${scratch}`, error));
  }
}
