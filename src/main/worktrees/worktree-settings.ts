/**
 * config.json's "worktrees" section: where worktrees go and what runs in a new one.
 *
 *   { "worktrees": { "dir": "~/worktrees", "setup": "pnpm install --offline", "setupTimeoutSeconds": 900 } }
 *
 * Without `dir`, a checkout's worktrees go beside it in `<checkout>.worktrees/`; with it, in
 * `<dir>/<checkout's directory name>/` (config.json serves every project). Either way they are
 * outside the checkout, where its test runners, watchers and `git status` do not look.
 */
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import * as v from 'valibot';

/** A setup that is still going after this long (a stuck install) fails the spawn. */
const DEFAULT_SETUP_TIMEOUT_SECONDS = 900;
const MAX_SETUP_TIMEOUT_SECONDS = 4 * 3600;

export interface WorktreeSettings {
  /** Holds a directory per project; absent: beside the checkout. */
  dir?: string;
  /** A shell command line run in each new worktree before its child starts. */
  setup?: string;
  setupTimeoutSeconds: number;
}

export const DEFAULT_WORKTREE_SETTINGS: WorktreeSettings = { setupTimeoutSeconds: DEFAULT_SETUP_TIMEOUT_SECONDS };

export const WorktreeSettingsSchema = v.optional(
  v.strictObject({
    dir: v.optional(
      v.pipe(
        v.string('expected a directory path'),
        v.minLength(1, 'expected a directory path'),
        v.check((dir) => isAbsolute(dir) || dir === '~' || dir.startsWith('~/'), 'must be an absolute path or start with ~/ (config.json serves every project, so a relative path has no meaning)'),
      ),
    ),
    setup: v.optional(v.pipe(v.string('expected a shell command line'), v.minLength(1, 'expected a shell command line'))),
    setupTimeoutSeconds: v.optional(
      v.pipe(v.number('expected a number of seconds'), v.integer('expected a whole number of seconds'), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_SETUP_TIMEOUT_SECONDS, `must be at most ${MAX_SETUP_TIMEOUT_SECONDS}`)),
      DEFAULT_SETUP_TIMEOUT_SECONDS,
    ),
  }),
  {},
);

/** The directory that holds a checkout's worktrees, each in `<it>/<name>`. */
export function worktreesHome(checkout: string, settings: WorktreeSettings): string {
  if (settings.dir === undefined) return `${checkout}.worktrees`;
  const dir = settings.dir === '~' ? homedir() : settings.dir.startsWith('~/') ? join(homedir(), settings.dir.slice(2)) : settings.dir;
  return join(dir, basename(checkout));
}
