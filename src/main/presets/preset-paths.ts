/**
 * Where presets live (spec §3), and patterm's other XDG directories. XDG variables that are unset, empty or relative
 * are ignored, as the XDG base-directory spec requires, and the defaults
 * (~/.config, ~/.local/share, ~/.cache) apply.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { PACKAGE_ROOT } from '../version.js';

type Env = Record<string, string | undefined>;

function xdgDir(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  if (value && isAbsolute(value)) return value;
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir(), ...fallback);
}

export function configHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_CONFIG_HOME', ['.config']);
}

export function dataHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_DATA_HOME', ['.local', 'share']);
}

/** Files patterm can rebuild at any time (the code cache: src/node/code-cache.ts). */
export function cacheHome(env: Env = process.env): string {
  return xdgDir(env, 'XDG_CACHE_HOME', ['.cache']);
}

export interface PresetDirs {
  root: string;
  agents: string;
  processes: string;
}

export function presetDirs(env: Env = process.env): PresetDirs {
  const root = join(configHome(env), 'patterm', 'presets');
  return { root, agents: join(root, 'agents'), processes: join(root, 'processes') };
}

/** The defaults shipped in the package's top-level presets/. */
export function bundledPresetDirs(): PresetDirs {
  const root = join(PACKAGE_ROOT, 'presets');
  return { root, agents: join(root, 'agents'), processes: join(root, 'processes') };
}
