/**
 * The end-of-flood fence shared by every PTY contender: the child prints the
 * data, then asks for the cursor position (DSR 6) and exits only once the
 * answer arrives. A terminal answers DSR in stream order, so the answer proves
 * that every byte before it was parsed. tmux and xterm answer it themselves;
 * in patterm the pane's emulator does. The raw-read baseline has no emulator,
 * so it counts bytes up to the query instead.
 */
import { BENCH_COLS, BENCH_ROWS } from './flood-data.js';

export const DSR_QUERY = '\x1b[6n';

/** argv that floods `path` and then waits for the DSR answer. `bash -c` because `read -d` with a delimiter needs bash. */
export function fencedFloodArgv(path: string, after = ''): string[] {
  return ['bash', '--norc', '--noprofile', '-c', `cat -- "$1"; printf '\\033[6n'; IFS= read -rs -dR _${after ? `; ${after}` : ''}`, 'fence', path];
}

/** The pane size every contender uses. */
export const PANE = { cols: BENCH_COLS, rows: BENCH_ROWS } as const;

export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / (1024 * 1024) / (ms / 1000);
}
