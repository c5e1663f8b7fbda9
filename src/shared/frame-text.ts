/**
 * A CellFrame as plain text: one string per row, a wide character once (its
 * spacer cell skipped), graphemes whole, trailing blanks trimmed. For reading
 * frames that did not come with text, such as a pane's history rows.
 */
import type { CellFrame } from './pane-types.js';

export function frameLines(frame: CellFrame): string[] {
  const lines: string[] = [];
  for (let row = 0; row < frame.rows; row++) lines.push(rowText(frame, row).trimEnd());
  return lines;
}

/**
 * Case-insensitive search text. Lower case, with every sigma as σ: the one
 * context-dependent lower-casing in Unicode (SpecialCasing's Final_Sigma) makes
 * "ΟΔΟΣ" end in ς as a whole line but in σ cell by cell, and the history search
 * (whole lines, cpu-tasks.ts) and its highlight (cell by cell, below) must fold
 * the same text the same way. ς and σ are one UTF-16 unit each, so positions
 * in the folded text stay where they were.
 */
export function foldCase(text: string): string {
  return text.toLowerCase().replace(/ς/g, 'σ');
}

/** Where `needle` first shows in a row, case-insensitively, in columns: what to highlight. */
export function findInFrameRow(frame: CellFrame, row: number, needle: string): { col: number; cols: number } | null {
  if (needle === '' || row < 0 || row >= frame.rows) return null;
  const columnAt: number[] = [];
  const text = rowText(frame, row, columnAt, foldCase);
  const folded = foldCase(needle);
  const at = text.indexOf(folded);
  if (at === -1) return null;
  const end = at + folded.length;
  const lastCol = end < columnAt.length ? columnAt[end] : frame.cols;
  return { col: columnAt[at], cols: Math.max(1, lastCol - columnAt[at]) };
}

/**
 * One row's text, each cell's through `transform` if given; `columnAt`, when
 * given, gets the column each UTF-16 unit of the result belongs to.
 */
function rowText(frame: CellFrame, row: number, columnAt?: number[], transform?: (cell: string) => string): string {
  let line = '';
  for (let col = 0; col < frame.cols; col++) {
    const index = row * frame.cols + col;
    const base = index * 4;
    if (((frame.cells[base + 3] >>> 8) & 0xff) === 0) continue; // behind a wide character
    const codepoint = frame.cells[base];
    const cell = frame.graphemes[index] ?? (codepoint === 0 ? ' ' : String.fromCodePoint(codepoint));
    const text = transform ? transform(cell) : cell;
    if (columnAt) for (let unit = 0; unit < text.length; unit++) columnAt.push(col);
    line += text;
  }
  return line;
}
