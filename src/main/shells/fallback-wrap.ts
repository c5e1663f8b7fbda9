/**
 * The fallback: a shell that sends no marks of its own (fish, sh, a shell
 * started without integration, a shell nested in another or behind ssh)
 * still has its command's start, end, exit status and directory seen, by
 * typing the command inside a group that prints marks before and after it.
 * The marks carry a nonce of this command's own, given to the PTY host first
 * (PtyHostApi.expectShellNonce): the wrapper is echoed and may land in the
 * shell's history, so the nonce must be worth nothing once the command ends.
 *
 * The group runs in the shell itself, so `cd` and `export` carry over. The
 * wrapper is typed as lines, each ended by Enter, as a person would type it.
 */
import type { ShellFlavor } from './shell-launch.js';

export function fallbackWrapper(command: string, nonce: string, flavor: ShellFlavor): string {
  const start = `printf '\\033]133;C;patterm=${nonce}\\007'`;
  const end = `printf '\\033]133;D;%s;patterm=${nonce};raw=%s\\007'`;
  const lines = command.split(/\r?\n/);
  const body = lines.join('\r');
  if (flavor === 'fish') return `begin; ${start}; ${body}\rend; ${end} $status "$PWD"\r`;
  return `{ ${start}; ${body}\r}; ${end} "$?" "$PWD"\r`;
}
