/** Where presets live: the user's under XDG config, the bundled defaults in the package. */
import { join } from 'node:path';
import { configHome, type Env } from '../../node/xdg-dirs.js';
import { PACKAGE_ROOT } from '../version.js';


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
