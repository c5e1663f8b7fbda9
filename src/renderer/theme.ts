/**
 * The chrome's styles. Colours are taken from the 16-colour palette, so they
 * reach the host as theme colours (SGR 30–37/90–97) and follow the user's
 * terminal theme rather than imposing RGB.
 */
import { CellFlag, DEFAULT_COLOR, type PaneKind, type PaneStatus } from '../shared/pane-types.js';
import { paletteColor } from '../shared/query-replies.js';
import type { Style } from './cell-buffer.js';

function themeColor(index: number): number {
  const [r, g, b] = paletteColor(index);
  return (r << 16) | (g << 8) | b;
}

const BLACK = themeColor(0);
const RED = themeColor(1);
const GREEN = themeColor(2);
const YELLOW = themeColor(3);
const MAGENTA = themeColor(5);
const CYAN = themeColor(6);
const BRIGHT_WHITE = themeColor(15);

const plain = (flags = 0, fg = DEFAULT_COLOR, bg = DEFAULT_COLOR): Style => ({ fg, bg, flags });

export const THEME = {
  text: plain(),
  dim: plain(CellFlag.Faint),
  bold: plain(CellFlag.Bold),
  heading: plain(CellFlag.Bold | CellFlag.Underline),
  divider: plain(CellFlag.Faint),
  tab: plain(),
  tabActive: plain(CellFlag.Inverse | CellFlag.Bold),
  tabAdd: plain(CellFlag.Bold, CYAN),
  selected: plain(CellFlag.Inverse),
  attention: plain(CellFlag.Bold, BLACK, YELLOW),
  /** The history reader's search match, in the yellow most terminals and pagers use for it. */
  searchMatch: plain(0, BLACK, YELLOW),
  statusBar: plain(CellFlag.Inverse),
  ownerUser: plain(CellFlag.Bold, BLACK, GREEN),
  ownerOrchestrator: plain(CellFlag.Bold, BLACK, MAGENTA),
  exited: plain(CellFlag.Bold, BLACK, CYAN),
  notice: { info: plain(CellFlag.Inverse), warning: plain(CellFlag.Bold, BLACK, YELLOW), error: plain(CellFlag.Bold, BRIGHT_WHITE, RED) },
  paletteBorder: plain(CellFlag.Bold, CYAN),
  paletteMatch: plain(CellFlag.Bold | CellFlag.Underline),
  disabled: plain(CellFlag.Faint | CellFlag.Strikethrough),
  errorText: plain(0, RED),
  warningText: plain(0, YELLOW),
} as const;

/** Tree and tab glyphs: ▶ orchestrator, ◉ running, ✓ exited cleanly, ✗ errored. */
export const ROOT_GLYPH = '▶';
/** Marks a tab or tree entry whose pane rang the bell while unfocused (tmux marks the window with "!"; that is taken by attention). */
export const BELL_GLYPH = '🔔';

/** A running pane whose program waits for an answer (a permission dialog, a question): it needs you. */
export const NEEDS_YOU_GLYPH = '✋';

export function statusGlyph(pane: { status: PaneStatus; exitCode: number | null; waitingForAnswer?: boolean }): string {
  if (pane.status === 'running') return pane.waitingForAnswer ? NEEDS_YOU_GLYPH : '◉';
  return pane.status === 'exited' && pane.exitCode === 0 ? '✓' : '✗';
}

/** A shell pane's command running. */
export const COMMAND_RUNNING_GLYPH = '⋯';

/** After a shell pane's name: its command running, or how the last one ended (✓, or ✗ and its code); '' before the first. */
export function shellNote(shell: { running: boolean; lastExitCode: number | null } | undefined): string {
  if (!shell) return '';
  if (shell.running) return ` ${COMMAND_RUNNING_GLYPH}`;
  if (shell.lastExitCode === null) return '';
  return shell.lastExitCode === 0 ? ' ✓' : ` ✗ ${shell.lastExitCode}`;
}

export function kindLabel(kind: PaneKind): string {
  return kind === 'agent' ? 'agent' : 'process';
}
