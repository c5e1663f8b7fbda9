/**
 * patterm's XDG base directories. Variables that are unset, empty or relative are ignored, as the
 * XDG base-directory spec requires, and the defaults under the home directory apply.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export type Env = Record<string, string | undefined>;

function xdgDir(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  if (value && isAbsolute(value)) return value;
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir(), ...fallback);
}

/** Presets and config.json: what the user edits. */
export function configHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_CONFIG_HOME', ['.config']);
}

/** Scratchpads: the user's data. */
export function dataHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_DATA_HOME', ['.local', 'share']);
}

/** Files patterm can rebuild at any time (the code cache: src/node/code-cache.ts). */
export function cacheHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_CACHE_HOME', ['.cache']);
}

/** What outlives a run but is not the user's own data: logs, ledgers, worktree and resume records. */
export function stateHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_STATE_HOME', ['.local', 'state']);
}
