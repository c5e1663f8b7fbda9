/**
 * A screen row as text with SGR sequences, the form `read_output` returns with
 * `styled: true` (like `tmux capture-pane -e`), and its parser twin, which
 * reads such a line (or tmux's) back into styled cells for comparison.
 *
 * Encoding rules: each line starts from the default pen and emits `ESC[...m`
 * only where the pen changes; it ends with `ESC[0m` when the pen is not the
 * default there. The emulator hands over resolved RGB colours, so a colour is
 * written in the shortest form that names it: 30-37/90-97 (40-47/100-107) when
 * it is one of the 16 palette colours, 38;5;n (48;5;n) when it is one of the
 * 256, else 38;2;r;g;b (48;2;r;g;b); the lowest palette index wins a tie.
 */
import { CellFlag, DEFAULT_COLOR, type CellFrame } from './pane-types.js';
import { FLAG_SGR } from './screen-serializer.js';
import { paletteColor } from './query-replies.js';

/** Overline (SGR 53) as the parser reports it: a bit above CellFlag's byte, as cell records carry no such flag. */
export const STYLED_OVERLINE = 1 << 8;

/** The CellFlag bits that have an SGR code. */
const SGR_FLAGS = FLAG_SGR.reduce((mask, [flag]) => mask | flag, 0);

/** 0xRRGGBB -> the lowest xterm palette index with that colour. */
const PALETTE_INDEX = new Map<number, number>();
for (let index = 255; index >= 0; index--) {
  const [r, g, b] = paletteColor(index);
  PALETTE_INDEX.set((r << 16) | (g << 8) | b, index);
}

interface Pen {
  fg: number;
  bg: number;
  flags: number;
}

/** SGR parameters that select `color` as foreground (`base` 30) or background (`base` 40). */
function colorParams(color: number, base: 30 | 40): string {
  if (color === DEFAULT_COLOR) return String(base + 9);
  const index = PALETTE_INDEX.get(color);
  if (index !== undefined && index < 8) return String(base + index);
  if (index !== undefined && index < 16) return String(base + 60 + index - 8);
  const extended = base + 8;
  if (index !== undefined) return `${extended};5;${index}`;
  return `${extended};2;${(color >>> 16) & 0xff};${(color >>> 8) & 0xff};${color & 0xff}`;
}

/** The SGR sequence that turns `pen` into `next`: only what changed, or a reset first when an attribute goes off. */
function sgrChange(pen: Pen, next: Pen): string {
  const params: string[] = [];
  const reset = (pen.flags & ~next.flags) !== 0;
  const from: Pen = reset ? { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 } : pen;
  if (reset) params.push('0');
  for (const [flag, code] of FLAG_SGR) if (next.flags & flag && !(from.flags & flag)) params.push(code);
  if (next.fg !== from.fg) params.push(colorParams(next.fg, 30));
  if (next.bg !== from.bg) params.push(colorParams(next.bg, 40));
  return params.length === 0 ? '' : `\x1b[${params.join(';')}m`;
}

/**
 * Columns up to the last one that differs from a blank cell in the default
 * style: trailing blanks are dropped, as in the plain text, unless they carry
 * a style (a highlighted bar, an inverse cursor line).
 */
function styledLength(frame: CellFrame, row: number): number {
  const { cols, cells, graphemes } = frame;
  let end = cols;
  while (end > 0) {
    const at = (row * cols + end - 1) * 4;
    const blank = (cells[at] === 0 || cells[at] === 0x20) && graphemes[row * cols + end - 1] === undefined;
    if (!blank || cells[at + 1] !== DEFAULT_COLOR || cells[at + 2] !== DEFAULT_COLOR || (cells[at + 3] & SGR_FLAGS) !== 0) break;
    end--;
  }
  return end;
}

/** Row `row` of `frame` as text with SGR sequences (see the file comment); a wide character once, graphemes whole. */
export function styledRow(frame: CellFrame, row: number): string {
  const { cols, cells, graphemes } = frame;
  const end = styledLength(frame, row);
  const pen: Pen = { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 };
  let line = '';
  for (let col = 0; col < end; col++) {
    const index = row * cols + col;
    const at = index * 4;
    if (((cells[at + 3] >>> 8) & 0xff) === 0) continue; // the spacer half of a wide character
    const next: Pen = { fg: cells[at + 1], bg: cells[at + 2], flags: cells[at + 3] & SGR_FLAGS };
    if (next.fg !== pen.fg || next.bg !== pen.bg || next.flags !== pen.flags) {
      line += sgrChange(pen, next);
      Object.assign(pen, next);
    }
    line += graphemes[index] ?? (cells[at] === 0 ? ' ' : String.fromCodePoint(cells[at]));
  }
  if (pen.fg !== DEFAULT_COLOR || pen.bg !== DEFAULT_COLOR || pen.flags !== 0) line += '\x1b[0m';
  return line;
}

/** Every row of `frame`, styled (see styledRow). */
export function styledRows(frame: CellFrame): string[] {
  const rows: string[] = [];
  for (let row = 0; row < frame.rows; row++) rows.push(styledRow(frame, row));
  return rows;
}

/** One character of a parsed styled line with the pen it was written in. */
export interface StyledChar {
  text: string;
  /** 0xRRGGBB, or DEFAULT_COLOR. */
  fg: number;
  bg: number;
  /** CellFlag bits, and STYLED_OVERLINE. */
  flags: number;
}

/** SGR code -> the attribute it sets; codes 22-29 and 55 clear them. */
const SET_FLAG = new Map<number, number>([...FLAG_SGR.map(([flag, code]): [number, number] => [Number(code), flag]), [21, CellFlag.Underline], [53, STYLED_OVERLINE]]);
const CLEAR_FLAGS = new Map<number, number>([
  [22, CellFlag.Bold | CellFlag.Faint],
  [23, CellFlag.Italic],
  [24, CellFlag.Underline],
  [25, CellFlag.Blink],
  [27, CellFlag.Inverse],
  [28, CellFlag.Invisible],
  [29, CellFlag.Strikethrough],
  [55, STYLED_OVERLINE],
]);

const rgb = ([r, g, b]: [number, number, number]) => (r << 16) | (g << 8) | b;

/** Applies one SGR sequence's parameters (`1;38;5;196`, `4:3`) to `pen`. */
function applySgr(pen: Pen, params: string): void {
  const parts = params === '' ? ['0'] : params.split(';');
  for (let i = 0; i < parts.length; i++) {
    const [head, sub] = parts[i].split(':');
    const code = Number(head || '0');
    if (code === 0) Object.assign(pen, { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 });
    else if (code === 4 && sub === '0') pen.flags &= ~CellFlag.Underline;
    else if (SET_FLAG.has(code)) pen.flags |= SET_FLAG.get(code)!;
    else if (CLEAR_FLAGS.has(code)) pen.flags &= ~CLEAR_FLAGS.get(code)!;
    else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) pen.fg = rgb(paletteColor(code >= 90 ? code - 82 : code - 30));
    else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) pen.bg = rgb(paletteColor(code >= 100 ? code - 92 : code - 40));
    else if (code === 39) pen.fg = DEFAULT_COLOR;
    else if (code === 49) pen.bg = DEFAULT_COLOR;
    else if (code === 38 || code === 48) {
      const [color, used] = extendedColor(parts, i, sub === undefined ? undefined : parts[i].split(':').slice(1));
      if (color !== null) pen[code === 38 ? 'fg' : 'bg'] = color;
      i += used;
    }
  }
}

/** A 38/48 colour, from `;`-separated parameters after index `at` or from its `:` sub-parameters; and how many `;` parameters it used. */
function extendedColor(parts: string[], at: number, subs: string[] | undefined): [number | null, number] {
  const args = subs ?? parts.slice(at + 1).map(Number).map(String);
  const kind = Number(args[0]);
  if (kind === 5) return [args[1] === undefined ? null : rgb(paletteColor(Number(args[1]) & 0xff)), subs ? 0 : 2];
  if (kind === 2) {
    // Colon form may carry a colour-space id first: 38:2::r:g:b or 38:2:r:g:b.
    const channels = subs && args.length >= 5 ? args.slice(2, 5) : args.slice(1, 4);
    const [r, g, b] = channels.map((value) => Number(value) & 0xff);
    return [(r << 16) | (g << 8) | b, subs ? 0 : 4];
  }
  return [null, subs ? 0 : 1];
}

/**
 * A styled line (this file's or `tmux capture-pane -e`'s) as code points with
 * their pens, colours resolved to RGB through the xterm palette; escape
 * sequences other than SGR are dropped.
 */
export function parseStyledLine(line: string): StyledChar[] {
  const pen: Pen = { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 };
  const chars: StyledChar[] = [];
  const pattern = /\x1b\[([0-?]*)[ -\/]*([@-~])|\x1b[ -\/]*[0-~]|([\s\S])/gu;
  for (const match of line.matchAll(pattern)) {
    if (match[2] === 'm') applySgr(pen, match[1]);
    else if (match[3] !== undefined) chars.push({ text: match[3], ...pen });
  }
  return chars;
}
