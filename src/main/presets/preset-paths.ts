/** Where presets live: the user's under XDG config, the bundled defaults in the package. */
import { join } from 'node:path';
import { configHome, type Env } from '../../node/xdg-dirs.js';
import { PACKAGE_ROOT } from '../version.js';


export interface PresetDirs {
  root: string;
  agents: string;
  processes: string;
  shells: string;
}

export function presetDirs(env: Env = process.env): PresetDirs {
  return presetDirsIn(join(configHome(env), 'patterm', 'presets'));
}

/** The defaults shipped in the package's top-level presets/. */
export function bundledPresetDirs(): PresetDirs {
  return presetDirsIn(join(PACKAGE_ROOT, 'presets'));
}

/** The folder of each kind of preset under `root`. */
export function presetDirsIn(root: string): PresetDirs {
  return { root, agents: join(root, 'agents'), processes: join(root, 'processes'), shells: join(root, 'shells') };
}
