/**
 * A grid of cells in the same packed layout as a pane's CellFrame (4 uint32
 * per cell: codepoint, fg, bg, flags | width << 8), so a pane's frame is copied
 * in row by row and the diff compares plain words. Multi-codepoint graphemes
 * live beside the words, keyed by cell index.
 */
import { DEFAULT_COLOR, type CellFrame } from '../shared/pane-types.js';
import type { Rect } from './layout.js';
import { graphemes } from './text-width.js';

export const WORDS_PER_CELL = 4;

export interface Style {
  fg: number;
  bg: number;
  /** CellFlag bits. */
  flags: number;
}

export const DEFAULT_STYLE: Style = { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 };

const NARROW = 1 << 8;
const WIDE = 2 << 8;
/** The cell behind a wide character: width 0, never drawn itself. */
const SPACER = 0;

export class CellBuffer {
  readonly cells: Uint32Array;
  readonly graphemes = new Map<number, string>();

  constructor(
    readonly cols: number,
    readonly rows: number,
  ) {
    this.cells = new Uint32Array(cols * rows * WORDS_PER_CELL);
    this.clear();
  }

  clear(style: Style = DEFAULT_STYLE): void {
    this.fill({ x: 0, y: 0, cols: this.cols, rows: this.rows }, style);
  }

  /** Blank cells (codepoint 0, drawn as a space) in the given style. */
  fill(rect: Rect, style: Style = DEFAULT_STYLE): void {
    const x0 = Math.max(0, rect.x);
    const y0 = Math.max(0, rect.y);
    const x1 = Math.min(this.cols, rect.x + rect.cols);
    const y1 = Math.min(this.rows, rect.y + rect.rows);
    for (let y = y0; y < y1; y++) {
      if (x1 > x0) this.breakWideCharacters(x0, x1 - x0, y);
      for (let x = x0; x < x1; x++) this.setWords(y * this.cols + x, 0, style, NARROW);
    }
  }

  /**
   * Writes text from (x, y) in one style, stopping before `maxX` (exclusive) or
   * the buffer edge. Returns the column after the last cell written.
   */
  text(x: number, y: number, text: string, style: Style = DEFAULT_STYLE, maxX = this.cols): number {
    if (y < 0 || y >= this.rows) return x;
    const limit = Math.min(maxX, this.cols);
    let col = x;
    for (const g of graphemes(text)) {
      if (g.width === 0) continue;
      if (col + g.width > limit) break;
      if (col >= 0) this.putGrapheme(col, y, g.text, g.width, style);
      col += g.width;
    }
    return col;
  }

  /** Repeats one single-width character, e.g. a border line. */
  repeat(x: number, y: number, char: string, count: number, style: Style = DEFAULT_STYLE): void {
    for (let i = 0; i < count; i++) if (x + i >= 0 && x + i < this.cols) this.putGrapheme(x + i, y, char, 1, style);
  }

  /** Applies a style change (e.g. highlight) to cells without touching their text. */
  restyle(rect: Rect, change: (style: Style) => Style): void {
    for (let y = Math.max(0, rect.y); y < Math.min(this.rows, rect.y + rect.rows); y++) {
      for (let x = Math.max(0, rect.x); x < Math.min(this.cols, rect.x + rect.cols); x++) {
        const base = (y * this.cols + x) * WORDS_PER_CELL;
        const next = change({ fg: this.cells[base + 1], bg: this.cells[base + 2], flags: this.cells[base + 3] & 0xff });
        this.cells[base + 1] = next.fg;
        this.cells[base + 2] = next.bg;
        this.cells[base + 3] = (this.cells[base + 3] & ~0xff) | (next.flags & 0xff);
      }
    }
  }

  private putGrapheme(x: number, y: number, text: string, width: number, style: Style): void {
    const index = y * this.cols + x;
    const codepoint = text.codePointAt(0) ?? 0x20;
    const isCluster = text.length > String.fromCodePoint(codepoint).length;
    this.breakWideCharacters(x, width === 2 && x + 1 < this.cols ? 2 : 1, y);
    if (width === 2 && x + 1 < this.cols) {
      this.setWords(index, codepoint, style, WIDE);
      this.setWords(index + 1, 0, style, SPACER);
    } else {
      this.setWords(index, width === 2 ? 0x20 : codepoint, style, NARROW);
    }
    if (isCluster && width <= 2) this.graphemes.set(index, text);
  }

  /**
   * Cells [x, x + count) of row y are about to be overwritten: a wide character
   * only half inside them loses its other half too, as on a real terminal, so
   * no wide character is left that would cover (and hide) the new cell.
   */
  private breakWideCharacters(x: number, count: number, y: number): void {
    const row = y * this.cols;
    if (x > 0 && this.widthAt(row + x) === 0 && this.widthAt(row + x - 1) === 2) this.blankHalf(row + x - 1);
    const last = x + count - 1;
    if (last + 1 < this.cols && this.widthAt(row + last) === 2 && this.widthAt(row + last + 1) === 0) this.blankHalf(row + last + 1);
  }

  private widthAt(index: number): number {
    return (this.cells[index * WORDS_PER_CELL + 3] >>> 8) & 0xff;
  }

  /** The surviving half of a split wide character: a blank in its style. */
  private blankHalf(index: number): void {
    const base = index * WORDS_PER_CELL;
    this.cells[base] = 0x20;
    this.cells[base + 3] = (this.cells[base + 3] & 0xff) | NARROW;
    if (this.graphemes.size > 0) this.graphemes.delete(index);
  }

  private setWords(index: number, codepoint: number, style: Style, widthBits: number): void {
    const base = index * WORDS_PER_CELL;
    this.cells[base] = codepoint;
    this.cells[base + 1] = style.fg;
    this.cells[base + 2] = style.bg;
    this.cells[base + 3] = (style.flags & 0xff) | widthBits;
    if (this.graphemes.size > 0) this.graphemes.delete(index);
  }

  /**
   * Copies a pane's frame into `rect`, clipped to both. Area the frame does not
   * cover is blanked, so a frame from before a resize never leaves stale cells.
   * A frame taller than the rect loses rows at the top, as a terminal window
   * shrinking does, so its last lines and cursor stay in view (an exited
   * pane's screen keeps the size it had). Returns the first frame row shown.
   */
  blit(frame: CellFrame, rect: Rect): number {
    this.fill(rect);
    const cols = Math.min(frame.cols, rect.cols, this.cols - rect.x);
    const rows = Math.min(frame.rows, rect.rows, this.rows - rect.y);
    if (cols <= 0 || rows <= 0) return 0;
    const top = firstShownRow(frame, rows);
    for (let row = 0; row < rows; row++) {
      const from = (top + row) * frame.cols * WORDS_PER_CELL;
      const to = ((rect.y + row) * this.cols + rect.x) * WORDS_PER_CELL;
      this.cells.set(frame.cells.subarray(from, from + cols * WORDS_PER_CELL), to);
      const last = to + (cols - 1) * WORDS_PER_CELL;
      // A wide character cut in half by the clip edge shows as a blank, as a real terminal would.
      if (((this.cells[last + 3] >>> 8) & 0xff) === 2 && cols < frame.cols) {
        this.cells[last] = 0x20;
        this.cells[last + 3] = (this.cells[last + 3] & 0xff) | NARROW;
      }
    }
    for (const key of Object.keys(frame.graphemes)) {
      const index = Number(key);
      const row = Math.floor(index / frame.cols) - top;
      const col = index % frame.cols;
      if (row >= 0 && row < rows && col < cols) this.graphemes.set((rect.y + row) * this.cols + rect.x + col, frame.graphemes[index]);
    }
    return top;
  }
}

/** With room for `rows` rows: the first to show so that the cursor's row and the last row with anything on it both fit. */
function firstShownRow(frame: CellFrame, rows: number): number {
  if (frame.rows <= rows) return 0;
  let bottom = Math.min(frame.cursor.y, frame.rows - 1);
  for (let row = frame.rows - 1; row > bottom; row--) {
    if (rowHasContent(frame, row)) {
      bottom = row;
      break;
    }
  }
  return Math.max(0, bottom + 1 - rows);
}

function rowHasContent(frame: CellFrame, row: number): boolean {
  for (let col = 0; col < frame.cols; col++) {
    const at = (row * frame.cols + col) * WORDS_PER_CELL;
    const codepoint = frame.cells[at];
    if ((codepoint !== 0 && codepoint !== 0x20) || frame.cells[at + 2] !== DEFAULT_COLOR || frame.graphemes[row * frame.cols + col] !== undefined) return true;
  }
  return false;
}
