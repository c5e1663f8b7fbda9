/**
 * `.worktreeinclude` at the checkout's top (the format Claude Code reads:
 * gitignore patterns) names the git-ignored files a new worktree needs copied
 * from the checkout, typically `.env*`. Git does the matching, so every
 * gitignore rule (negation, anchoring, `**`, directories) means what it means to git.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readlink, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git, splitNul } from './git.js';
import { pathExists } from './path-exists.js';

export const INCLUDE_FILE = '.worktreeinclude';

export interface IncludeResult {
  copied: string[];
  /** Already in the worktree (tracked at the base commit): left as the base has it. */
  skipped: string[];
}

export async function copyIncludedFiles(checkout: string, worktree: string): Promise<IncludeResult> {
  const includeFile = join(checkout, INCLUDE_FILE);
  if (!(await pathExists(includeFile))) return { copied: [], skipped: [] };
  // Untracked files that the patterns match; of those, only what git ignores: a file that is merely
  // untracked is someone's work in progress, not configuration.
  const matching = splitNul(await git(checkout, ['ls-files', '-z', '--others', '--ignored', `--exclude-from=${includeFile}`]));
  if (matching.length === 0) return { copied: [], skipped: [] };
  const ignored = splitNul(await git(checkout, ['check-ignore', '-z', '--stdin'], { input: matching.join('\0') + '\0', okCodes: [1] }));
  const result: IncludeResult = { copied: [], skipped: [] };
  for (const path of ignored) {
    const from = join(checkout, path);
    const to = join(worktree, path);
    if (await pathExists(to)) {
      result.skipped.push(path);
      continue;
    }
    await mkdir(dirname(to), { recursive: true });
    const info = await lstat(from);
    if (info.isSymbolicLink()) await symlink(await readlink(from), to);
    else await copyFile(from, to, constants.COPYFILE_EXCL);
    result.copied.push(path);
  }
  return result;
}
