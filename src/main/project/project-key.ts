/**
 * A project's identity on disk: its directories under XDG data (scratchpads) and XDG state
 * (logs of commands, worktree and resume records), keyed by a hash of the project's real path so
 * two spellings of one directory share a key.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { dataHome, stateHome } from '../../node/xdg-dirs.js';

/** sha256(realpath(project_dir)), hex, cut to this many characters: short enough for paths, long enough never to collide. */
const PROJECT_KEY_LENGTH = 16;

export function projectKey(projectDir: string): string {
  return createHash('sha256').update(realpathSync(projectDir)).digest('hex').slice(0, PROJECT_KEY_LENGTH);
}

/** `<$XDG_DATA_HOME>/patterm/projects/<key>` (XDG_DATA_HOME falls back to ~/.local/share): the user's data. */
export function projectDataDir(projectDir: string, home: string = dataHome()): string {
  return join(home, 'patterm', 'projects', projectKey(projectDir));
}

/**
 * `<$XDG_STATE_HOME>/patterm/projects/<key>` (XDG_STATE_HOME falls back to ~/.local/state): what
 * outlives a run (ledgers, records). Writers keep it append-only or replace files atomically
 * (src/node/atomic-write.ts), so a crash mid-write never loses what was there.
 */
export function projectStateDir(projectDir: string, home: string = stateHome()): string {
  return join(home, 'patterm', 'projects', projectKey(projectDir));
}
