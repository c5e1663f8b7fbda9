/**
 * A home directory for the shell-run probes: the same start-up files for
 * every contender, a plain `$ ` prompt, and no history file, so patterm's
 * shells and tmux's bash do the same work per command.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROMPT = '$ ';

/** `<parent>/home`, made now; the probe removes `parent` when it is done. */
export function shellHome(parent: string): string {
  const home = join(parent, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.bashrc'), "PS1='$ '\nHISTFILE=/dev/null\n");
  writeFileSync(join(home, '.bash_profile'), '. ~/.bashrc\n');
  writeFileSync(join(home, '.zshrc'), "PS1='$ '\nunset HISTFILE\n");
  return home;
}

/** The command of call `i`: `true`, with a number so each call's echo differs from the last (tmux's poll needs that). */
export const commandOf = (i: number): string => `true # ${i}`;
