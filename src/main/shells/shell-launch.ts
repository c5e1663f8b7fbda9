/**
 * How a shell pane's shell is started. bash and zsh get patterm's
 * integration without any file of the user's being touched:
 *  - bash starts in POSIX mode with ENV naming patterm's script, so it reads
 *    no start-up file itself; the script turns POSIX mode off and reads the
 *    user's files in bash's own order (login or not) before adding its marks;
 *  - zsh starts with ZDOTDIR pointing at patterm's directory, whose files
 *    source the user's with the user's ZDOTDIR back in place.
 * Every other shell (or one started with integration off) starts as itself,
 * and its commands are run through the fallback wrapper (fallback-wrap.ts).
 */
import { basename } from 'node:path';
import type { IntegrationFiles } from './integration-files.js';

/** How a shell's commands are written and which integration it can have. */
export type ShellFlavor = 'bash' | 'zsh' | 'fish' | 'posix';

/** Shells that take `-l` (login) and `-i` (interactive). */
const KNOWN_SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ash', 'ksh', 'mksh', 'pdksh', 'yash', 'busybox']);

export function shellFlavor(program: string): ShellFlavor {
  const name = basename(program).replace(/^-/, '');
  if (name === 'bash' || name === 'zsh' || name === 'fish') return name;
  return 'posix';
}

/** Whether a process name (from /proc, say) is a shell that commands can be typed into, or a remote one. */
export function isInteractiveShellName(name: string): boolean {
  return KNOWN_SHELLS.has(name.replace(/^-/, '')) || name === 'ssh' || name === 'mosh-client';
}

/** The environment variables the integration scripts read (and remove) at start-up. */
export const NONCE_VAR = 'PATTERM_SHELL_NONCE';

export interface ShellLaunchRequest {
  program: string;
  /** Add patterm's integration (bash and zsh only). */
  integration: boolean;
  login: boolean;
  nonce: string;
  files: IntegrationFiles | null;
  /** The environment the shell would get without patterm's integration (to keep the user's ENV, HISTFILE, ZDOTDIR). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface ShellLaunch {
  argv: string[];
  /** Variables to add to the pane's environment. */
  env: Record<string, string>;
  flavor: ShellFlavor;
  /** The shell will send patterm's marks (when its start-up files let it). */
  integrated: boolean;
}

export function shellLaunch(request: ShellLaunchRequest): ShellLaunch {
  const flavor = shellFlavor(request.program);
  const known = KNOWN_SHELLS.has(basename(request.program));
  const flags = known ? [...(request.login ? ['-l'] : []), '-i'] : [];
  const files = request.files;
  if (request.integration && files && flavor === 'bash') {
    const env: Record<string, string> = { ENV: files.bashScript, [NONCE_VAR]: request.nonce };
    if (request.env.ENV !== undefined) env.PATTERM_BASH_ENV = request.env.ENV;
    // In POSIX mode bash's history file defaults to ~/.sh_history: the default it has otherwise
    // is given, and unexported again by the script, unless the user set one.
    if (request.env.HISTFILE === undefined) {
      env.HISTFILE = `${request.env.HOME ?? ''}/.bash_history`;
      env.PATTERM_BASH_UNEXPORT_HISTFILE = '1';
    }
    return { argv: [request.program, '--posix', ...flags], env, flavor, integrated: true };
  }
  if (request.integration && files && flavor === 'zsh') {
    const env: Record<string, string> = { ZDOTDIR: files.zshDotDir, [NONCE_VAR]: request.nonce };
    if (request.env.ZDOTDIR !== undefined) env.PATTERM_USER_ZDOTDIR = request.env.ZDOTDIR;
    return { argv: [request.program, ...flags], env, flavor, integrated: true };
  }
  return { argv: [request.program, ...flags], env: {}, flavor, integrated: false };
}
