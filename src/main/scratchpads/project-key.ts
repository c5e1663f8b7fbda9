/**
 * Where a project's scratchpads live (spec §3): under XDG data, keyed by a hash
 * of the project's real path so two spellings of one directory share a key.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { dataHome } from '../presets/preset-paths.js';

/** Spec §3: sha256(realpath(project_dir))[:16]. */
const PROJECT_KEY_LENGTH = 16;

export function projectKey(projectDir: string): string {
  return createHash('sha256').update(realpathSync(projectDir)).digest('hex').slice(0, PROJECT_KEY_LENGTH);
}

/** `<$XDG_DATA_HOME>/patterm/projects/<key>` (XDG_DATA_HOME falls back to ~/.local/share). */
export function projectDataDir(projectDir: string, home: string = dataHome()): string {
  return join(home, 'patterm', 'projects', projectKey(projectDir));
}
