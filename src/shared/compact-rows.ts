/**
 * A CellFrame's rows packed small: how a frozen pane keeps its history. Each
 * row's trailing run of identical cells (blanks, a rule of dashes) is cut
 * down to one, and each kept cell is its codepoint and the index of its style
 * in a table, 6 bytes instead of a frame's 16. A log's rows are mostly blank
 * to the right and in a few styles, so they pack to a small fraction of a
 * frame (figures: docs/perf-notes.md). Rows come back exactly as they were.
 */
import type { CellFrame } from './pane-types.js';

const WORDS_PER_CELL = 4;

/** Plain data (it crosses threads by structured clone). */
export interface PackedRows {
  /** The frame the rows came from, without its cells and graphemes. */
  template: Omit<CellFrame, 'cells' | 'graphemes'>;
  /** Where each row's kept cells start in `codepoints` and `styleOf` (one extra entry: the end). */
  starts: Uint32Array;
  codepoints: Uint32Array;
  /** Per kept cell, its style's index in `styles`: a log has a handful of styles, a cell's three words become one. */
  styleOf: Uint16Array | Uint32Array;
  /** Three words per style: a cell's words 1 to 3 (fg, bg, flags and width). */
  styles: Uint32Array;
  /** Each row's last cell (all four words), which stands in every column after its kept cells. */
  fills: Uint32Array;
  /** By cell index in the whole frame, as CellFrame.graphemes. */
  graphemes: Record<number, string>;
}

export function packRows(frame: CellFrame): PackedRows {
  const { rows, cols, cells, graphemes, ...rest } = frame;
  const starts = new Uint32Array(rows + 1);
  const fills = new Uint32Array(rows * WORDS_PER_CELL);
  const kept = new Uint32Array(rows);
  let total = 0;
  for (let row = 0; row < rows; row++) {
    kept[row] = keptLength(frame, row);
    starts[row] = total;
    total += kept[row];
    const last = (row * cols + cols - 1) * WORDS_PER_CELL;
    fills.set(cells.subarray(last, last + WORDS_PER_CELL), row * WORDS_PER_CELL);
  }
  starts[rows] = total;
  const codepoints = new Uint32Array(total);
  const styleOf = new Uint32Array(total);
  const styles = new StyleTable();
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < kept[row]; col++) {
      const at = (row * cols + col) * WORDS_PER_CELL;
      const cell = starts[row] + col;
      codepoints[cell] = cells[at];
      styleOf[cell] = styles.indexOf(cells[at + 1], cells[at + 2], cells[at + 3]);
    }
  }
  return {
    template: { ...rest, rows, cols, cursor: { ...frame.cursor }, modes: { ...frame.modes } },
    starts,
    codepoints,
    styleOf: styles.count <= 0x10000 ? Uint16Array.from(styleOf) : styleOf,
    styles: styles.words(),
    fills,
    graphemes: { ...graphemes },
  };
}

/** Rows `start` .. `start + count` (within range) as a frame like the one they came from. */
export function unpackRows(packed: PackedRows, start: number, count: number): CellFrame {
  const { template, starts, codepoints, styleOf, styles, fills } = packed;
  const { cols } = template;
  const cells = new Uint32Array(count * cols * WORDS_PER_CELL);
  for (let i = 0; i < count; i++) {
    const row = start + i;
    const rowStart = i * cols * WORDS_PER_CELL;
    let at = rowStart;
    for (let cell = starts[row]; cell < starts[row + 1]; cell++, at += WORDS_PER_CELL) {
      const style = styleOf[cell] * 3;
      cells[at] = codepoints[cell];
      cells[at + 1] = styles[style];
      cells[at + 2] = styles[style + 1];
      cells[at + 3] = styles[style + 2];
    }
    const fill = fills.subarray(row * WORDS_PER_CELL, (row + 1) * WORDS_PER_CELL);
    for (; at < rowStart + cols * WORDS_PER_CELL; at += WORDS_PER_CELL) cells.set(fill, at);
  }
  const graphemes: Record<number, string> = {};
  const first = start * cols;
  for (const [index, text] of Object.entries(packed.graphemes)) {
    const at = Number(index) - first;
    if (at >= 0 && at < count * cols) graphemes[at] = text;
  }
  return { ...template, rows: count, cells, graphemes, cursor: { ...template.cursor }, modes: { ...template.modes } };
}

/** Distinct (fg, bg, flags and width) triples, numbered in order of first use. */
class StyleTable {
  private readonly index = new Map<string, number>();
  private readonly list: number[] = [];
  private last = { fg: -1, bg: -1, rest: -1, index: -1 };

  get count(): number {
    return this.index.size;
  }

  indexOf(fg: number, bg: number, rest: number): number {
    const { last } = this;
    if (fg === last.fg && bg === last.bg && rest === last.rest) return last.index; // runs of one style are the rule
    const key = `${fg},${bg},${rest}`;
    let found = this.index.get(key);
    if (found === undefined) {
      found = this.index.size;
      this.index.set(key, found);
      this.list.push(fg, bg, rest);
    }
    this.last = { fg, bg, rest, index: found };
    return found;
  }

  words(): Uint32Array {
    return Uint32Array.from(this.list);
  }
}

/** Cells before the row's trailing run of cells identical to its last one (graphemes are kept apart, by index). */
function keptLength(frame: CellFrame, row: number): number {
  const { cols, cells } = frame;
  const base = row * cols * WORDS_PER_CELL;
  const last = base + (cols - 1) * WORDS_PER_CELL;
  let length = cols - 1;
  while (length > 0) {
    const at = base + (length - 1) * WORDS_PER_CELL;
    if (cells[at] !== cells[last] || cells[at + 1] !== cells[last + 1] || cells[at + 2] !== cells[last + 2] || cells[at + 3] !== cells[last + 3]) break;
    length--;
  }
  return length;
}
