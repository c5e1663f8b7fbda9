/**
 * A home directory for the shell-run probes: the same start-up files for
 * every contender, a plain `$ ` prompt, and no history file, so patterm's
 * shells and tmux's bash do the same work per command.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMPT = '$ ';

export function shellHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patterm-bench-home-'));
  writeFileSync(join(home, '.bashrc'), "PS1='$ '\nHISTFILE=/dev/null\n");
  writeFileSync(join(home, '.bash_profile'), '. ~/.bashrc\n');
  writeFileSync(join(home, '.zshrc'), "PS1='$ '\nunset HISTFILE\n");
  return home;
}

/** The command of call `i`: `true`, with a number so each call's echo differs from the last (tmux's poll needs that). */
export const commandOf = (i: number): string => `true # ${i}`;
