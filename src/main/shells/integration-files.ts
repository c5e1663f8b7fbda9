/**
 * The shell-integration scripts (shell-integration/ in the package), copied
 * once per patterm run into a private directory: zsh needs a ZDOTDIR it may
 * write to (a global start-up file can run compinit, which writes its dump
 * there), and bash expands ENV as a word, so its path should hold nothing a
 * shell would expand. The directory goes when patterm exits, even when it is
 * killed (leftover-paths.ts).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { removeAtExit } from '../process/exit-cleanups.js';

const SOURCE = join(PACKAGE_ROOT, 'shell-integration');
const ZSH_FILES = ['.zshenv', '.zprofile', '.zshrc', '.zlogin', 'patterm.zsh'];

export interface IntegrationFiles {
  /** The script bash reads through ENV. */
  bashScript: string;
  /** The ZDOTDIR zsh starts with. */
  zshDotDir: string;
  dispose(): void;
}

export function installIntegrationFiles(): IntegrationFiles {
  // mkdtemp makes it 0700: only the user reads the scripts zsh and bash will run.
  const root = mkdtempSync(join(tmpdir(), 'patterm-shell-'));
  const forget = removeAtExit(root, 'tree');
  try {
    mkdirSync(join(root, 'bash'));
    mkdirSync(join(root, 'zsh'));
    copyFileSync(join(SOURCE, 'bash', 'patterm.bash'), join(root, 'bash', 'patterm.bash'));
    for (const file of ZSH_FILES) copyFileSync(join(SOURCE, 'zsh', file), join(root, 'zsh', file));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    forget();
    throw new Error(`could not install patterm's shell integration from ${SOURCE}: ${(error as Error).message}`, { cause: error });
  }
  return {
    bashScript: join(root, 'bash', 'patterm.bash'),
    zshDotDir: join(root, 'zsh'),
    dispose() {
      rmSync(root, { recursive: true, force: true });
      forget();
    },
  };
}
