/**
 * Writes a screen back out as VT bytes: fed to a fresh emulator of the same
 * size, they rebuild what the frame shows (text, wide characters, graphemes,
 * colours and attributes, the active screen, the cursor) and the modes that
 * can be read back from the old one.
 *
 * Used to compact a pane's emulator: ghostty-web 0.4.0 never gives memory back
 * (output with hundreds of distinct styles grows its WASM memory many times
 * faster than its input), so a bloated emulator is replaced by a fresh one that is
 * painted from this, at the cost of O(screen) rather than a byte replay.
 *
 * Not carried over (not readable from ghostty-web): the primary screen while
 * the alternate one is active (and then its scrollback; a pane's compaction
 * waits for the program to leave that screen, emulator-keeper.ts), soft wraps in the
 * scrollback, the SGR pen, the scroll region, tab stops, the saved cursor,
 * charsets, hyperlinks and underline styles.
 */
import { CellFlag, DEFAULT_COLOR, type CellFrame } from './pane-types.js';

/** DEC private modes worth restoring, in the order they are restored (origin mode last: setting it homes the cursor). */
export const RESTORED_DEC_MODES = [1, 7, 25, 66, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 2004, 6] as const;
/** Grapheme clustering: restored before the screen is painted, so that clustered graphemes take the width they had. */
export const GRAPHEME_CLUSTERING_MODE = 2027;
/** ANSI modes worth restoring: insert (IRM) and newline (LNM). */
export const RESTORED_ANSI_MODES = [4, 20] as const;

export interface ModeState {
  dec: Partial<Record<number, boolean>>;
  ansi: Partial<Record<number, boolean>>;
}

/** SGR parameter for each CellFlag bit (the TUI renderer uses it too). */
export const FLAG_SGR: [CellFlag, string][] = [
  [CellFlag.Bold, '1'],
  [CellFlag.Faint, '2'],
  [CellFlag.Italic, '3'],
  [CellFlag.Underline, '4'],
  [CellFlag.Blink, '5'],
  [CellFlag.Inverse, '7'],
  [CellFlag.Invisible, '8'],
  [CellFlag.Strikethrough, '9'],
];

/** The CellFlag bits that have an SGR code: a cell's style is its colours and these. */
const SGR_FLAGS = FLAG_SGR.reduce((mask, [flag]) => mask | flag, 0);

/**
 * The style last written, kept across rows. Compared as numbers, not as SGR
 * strings: building each cell's SGR string to compare it was most of a
 * compaction's cost.
 */
interface Pen {
  fg: number;
  bg: number;
  flags: number;
}

const defaultPen = (): Pen => ({ fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 });

/** The SGR sequence that sets the pen to this style, unless it is set already. */
function penTo(pen: Pen, fg: number, bg: number, flags: number): string {
  if (pen.fg === fg && pen.bg === bg && pen.flags === flags) return '';
  pen.fg = fg;
  pen.bg = bg;
  pen.flags = flags;
  return sgrFor(fg, bg, flags);
}

/** The SGR sequence that sets the whole pen to this style: colours (DEFAULT_COLOR or 0xRRGGBB) and CellFlag bits. */
export function sgrFor(fg: number, bg: number, flags: number): string {
  let sgr = '\x1b[0';
  for (const [flag, code] of FLAG_SGR) if (flags & flag) sgr += `;${code}`;
  if (fg !== DEFAULT_COLOR) sgr += `;38;2;${(fg >>> 16) & 0xff};${(fg >>> 8) & 0xff};${fg & 0xff}`;
  if (bg !== DEFAULT_COLOR) sgr += `;48;2;${(bg >>> 16) & 0xff};${(bg >>> 8) & 0xff};${bg & 0xff}`;
  return `${sgr}m`;
}

/**
 * How the scrollback rows are written: `styled` with their colours and
 * attributes, `plain` as text alone (the screen keeps its styles either way).
 * Plain is the fallback when the styles themselves are the problem: replaying
 * hundreds of them can bloat a fresh emulator or run past a compaction's
 * budget (emulator-compaction.ts), and the text is what history readers need.
 */
export type ScrollbackStyle = 'styled' | 'plain';

/**
 * `scrollback`, when given, holds the primary screen's scrollback rows (oldest
 * first): they are written as lines and scrolled off the top, so the fresh
 * emulator keeps them as its own scrollback (soft wraps become hard breaks).
 * Ignored while the alternate screen is active.
 */
export function serializeScreen(frame: CellFrame, modes: ModeState, scrollback?: CellFrame, scrollbackStyle: ScrollbackStyle = 'styled'): string {
  const out: string[] = [];
  if (frame.activeScreen === 'alternate') out.push('\x1b[?1049h');
  if (modes.dec[GRAPHEME_CLUSTERING_MODE]) out.push(`\x1b[?${GRAPHEME_CLUSTERING_MODE}h`);
  // No autowrap while painting: the last column must not wrap onto the next row.
  out.push('\x1b[?7l\x1b[0m\x1b[H');
  let pen = defaultPen();
  if (scrollback && scrollback.rows > 0 && frame.activeScreen === 'primary') {
    const styled = scrollbackStyle === 'styled';
    for (let row = 0; row < scrollback.rows; row++) {
      out.push(paintRow(scrollback, row, paintedLength(scrollback, row, styled), pen, styled));
      out.push('\x1b[0m\r\n');
      pen = defaultPen();
    }
    // Scroll the last of them off too: the screen is left blank, as 2J would leave it
    // (without 2J, which an emulator may push into the scrollback itself).
    out.push('\r\n'.repeat(frame.rows - 1));
  } else {
    out.push('\x1b[2J');
  }
  for (let row = 0; row < frame.rows; row++) {
    const end = paintedLength(frame, row);
    if (end === 0) continue;
    out.push(`\x1b[${row + 1};1H`);
    out.push(paintRow(frame, row, end, pen));
  }
  out.push('\x1b[0m');
  for (const mode of RESTORED_DEC_MODES) {
    const set = modes.dec[mode] ?? (mode === 7 || mode === 25); // autowrap and cursor visible are on by default
    out.push(`\x1b[?${mode}${set ? 'h' : 'l'}`);
  }
  for (const mode of RESTORED_ANSI_MODES) if (modes.ansi[mode]) out.push(`\x1b[${mode}h`);
  out.push(`\x1b[${frame.cursor.y + 1};${frame.cursor.x + 1}H`);
  return out.join('');
}

/**
 * Columns up to the last that differs from what a cleared row holds (blank,
 * default style); with `styled` false, up to the last with text, whatever its style.
 */
function paintedLength(frame: CellFrame, row: number, styled = true): number {
  const { cols, cells, graphemes } = frame;
  let end = cols;
  while (end > 0) {
    const at = (row * cols + end - 1) * 4;
    const blank = cells[at] === 0 || cells[at] === 0x20;
    if (!blank || graphemes[row * cols + end - 1] !== undefined) break;
    if (styled && (cells[at + 1] !== DEFAULT_COLOR || cells[at + 2] !== DEFAULT_COLOR || (cells[at + 3] & 0xff) !== 0)) break;
    end--;
  }
  return end;
}

/**
 * A row's first `end` cells, painted from column 0; `pen` is the style last
 * written, kept across rows. With `styled` false the text alone, in the default style.
 */
function paintRow(frame: CellFrame, row: number, end: number, pen: Pen, styled = true): string {
  const { cols, cells, graphemes } = frame;
  let text = '';
  for (let col = 0; col < end; col++) {
    const index = row * cols + col;
    const at = index * 4;
    const width = (cells[at + 3] >>> 8) & 0xff;
    if (width === 0) continue; // the spacer half of a wide character
    if (cells[at] === 0 && graphemes[index] === undefined) {
      // Never-written cells stay empty (codepoint 0, not a space): skip over them,
      // erasing (ECH) in the background colour when they have one.
      let run = 1;
      while (col + run < end && cells[at + run * 4] === 0 && cells[at + run * 4 + 2] === cells[at + 2] && graphemes[index + run] === undefined) run++;
      if (styled && cells[at + 2] !== DEFAULT_COLOR) text += `${penTo(pen, DEFAULT_COLOR, cells[at + 2], 0)}\x1b[${run}X`;
      text += `\x1b[${run}C`;
      col += run - 1;
      continue;
    }
    if (styled) text += penTo(pen, cells[at + 1], cells[at + 2], cells[at + 3] & SGR_FLAGS);
    text += graphemes[index] ?? String.fromCodePoint(cells[at]);
  }
  return text;
}
