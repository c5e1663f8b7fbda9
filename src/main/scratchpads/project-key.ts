/**
 * Where a project's scratchpads live (spec §3): under XDG data, keyed by a hash
 * of the project's real path so two spellings of one directory share a key.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Spec §3: sha256(realpath(project_dir))[:16]. */
const PROJECT_KEY_LENGTH = 16;

export function projectKey(projectDir: string): string {
  return createHash('sha256').update(realpathSync(projectDir)).digest('hex').slice(0, PROJECT_KEY_LENGTH);
}

/** $XDG_DATA_HOME, or ~/.local/share when it is unset or not absolute (as the XDG spec says). */
export function xdgDataHome(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.XDG_DATA_HOME;
  return value && isAbsolute(value) ? value : join(homedir(), '.local', 'share');
}

export function projectDataDir(projectDir: string, dataHome: string = xdgDataHome()): string {
  return join(dataHome, 'patterm', 'projects', projectKey(projectDir));
}
