/**
 * A pane's cells as text rows with SGR sequences, in the form `tmux capture-pane -e`
 * gives and read_output's styled read promises: each row starts from the default
 * pen, says `ESC[…m` where the pen changes and ends with `ESC[0m` if it is not
 * back to default. Wide characters appear once; trailing default blanks are dropped.
 *
 * A test-side stand-in for the styled read's encoder (issue 28): once
 * src/shared/styled-line.ts is on main, test/conformance/terminals.ts should
 * import its styledRows (same name and signature) and this file should go.
 */
import { CellFlag, DEFAULT_COLOR, type CellFrame } from '../../src/shared/pane-types.js';
import { paletteColor } from '../../src/shared/query-replies.js';

const rgbToInt = ([r, g, b]: [number, number, number]) => (r << 16) | (g << 8) | b;

/** RGB to the lowest palette index with that colour: the 16 named colours first, as a program most often set them. */
const PALETTE_INDEX = new Map<number, number>();
for (let index = 255; index >= 0; index--) PALETTE_INDEX.set(rgbToInt(paletteColor(index)), index);

/** Cell flags and the SGR parameter that sets each, in the order they are written. */
const FLAG_SGR: [CellFlag, number][] = [
  [CellFlag.Bold, 1],
  [CellFlag.Faint, 2],
  [CellFlag.Italic, 3],
  [CellFlag.Underline, 4],
  [CellFlag.Blink, 5],
  [CellFlag.Inverse, 7],
  [CellFlag.Invisible, 8],
  [CellFlag.Strikethrough, 9],
];

/** The flag bits a pen carries (the cell word's low byte; the rest is the width). */
const FLAG_MASK = 0xff;

function colorParams(rgb: number, foreground: boolean): string {
  const index = PALETTE_INDEX.get(rgb);
  if (index !== undefined && index < 8) return String((foreground ? 30 : 40) + index);
  if (index !== undefined && index < 16) return String((foreground ? 90 : 100) + index - 8);
  if (index !== undefined) return `${foreground ? 38 : 48};5;${index}`;
  return `${foreground ? 38 : 48};2;${(rgb >>> 16) & 0xff};${(rgb >>> 8) & 0xff};${rgb & 0xff}`;
}

function penSgr(fg: number, bg: number, flags: number): string {
  const params = ['0'];
  for (const [flag, sgr] of FLAG_SGR) if (flags & flag) params.push(String(sgr));
  if (fg !== DEFAULT_COLOR) params.push(colorParams(fg, true));
  if (bg !== DEFAULT_COLOR) params.push(colorParams(bg, false));
  return `\x1b[${params.join(';')}m`;
}

/** One row of `frame` as text with SGR sequences (see the file comment). */
export function styledRow(frame: CellFrame, row: number): string {
  const parts: string[] = [];
  let pen = { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 };
  let kept = 0; // parts up to the last cell that is not a default blank
  let penAtKept = pen;
  for (let col = 0; col < frame.cols; col++) {
    const index = row * frame.cols + col;
    const [codepoint, fg, bg, word3] = frame.cells.subarray(index * 4, index * 4 + 4);
    if (word3 >>> 8 === 0) continue; // the spacer behind a wide character
    const flags = word3 & FLAG_MASK;
    if (fg !== pen.fg || bg !== pen.bg || flags !== pen.flags) {
      pen = { fg, bg, flags };
      parts.push(penSgr(fg, bg, flags));
    }
    const text = frame.graphemes[index] ?? (codepoint === 0 ? ' ' : String.fromCodePoint(codepoint));
    parts.push(text);
    const defaultBlank = text === ' ' && fg === DEFAULT_COLOR && bg === DEFAULT_COLOR && flags === 0;
    if (!defaultBlank) [kept, penAtKept] = [parts.length, pen];
  }
  const line = parts.slice(0, kept).join('');
  const backToDefault = penAtKept.fg === DEFAULT_COLOR && penAtKept.bg === DEFAULT_COLOR && penAtKept.flags === 0;
  return backToDefault ? line : `${line}\x1b[0m`;
}

/** Every row of `frame` (see styledRow). */
export function styledRows(frame: CellFrame): string[] {
  return Array.from({ length: frame.rows }, (_, row) => styledRow(frame, row));
}
