/**
 * ghostty's 16-byte cell records, as read straight out of its WASM memory:
 * their layout, packing them into CellFrame words, and comparing rows of them.
 */
import { DEFAULT_COLOR } from '../shared/pane-types.js';

/** Bytes per cell record in ghostty's viewport buffer (ghostty_cell_t). */
export const CELL_BYTES = 16;

/**
 * Colours we configure as the terminal defaults, so that a cell still carrying
 * the default can be told apart from one a program painted explicitly. Chosen to
 * be unlikely in real output; the only cost of a collision is one cell drawn in
 * the host terminal's default colour instead of a near-identical RGB.
 */
export const SENTINEL_FG = 0xe5e5e4;
export const SENTINEL_BG = 0x000001;

/**
 * True when `rowWords` words from `start` are the same in both snapshots and
 * the row holds no multi-codepoint grapheme: a cell record carries only a
 * grapheme's first codepoint, so such a row can change with its words the same.
 */
export function sameRow(words: Uint32Array, previous: Uint32Array, start: number, rowWords: number): boolean {
  if (previous.length < start + rowWords) return false;
  for (let i = start, end = start + rowWords; i < end; i += 4) {
    if (words[i] !== previous[i] || words[i + 1] !== previous[i + 1] || words[i + 2] !== previous[i + 2] || words[i + 3] !== previous[i + 3]) return false;
    if (((words[i + 3] >>> 16) & 0xff) > 0) return false;
  }
  return true;
}

/**
 * Packs `count` of ghostty's 16-byte cell records into CellFrame words. Byte
 * layout of a record: [0..3] codepoint, [4..6] fg rgb, [7..9] bg rgb, [10]
 * flags, [11] width, [14] grapheme length. `onGrapheme(i)` is called for each
 * cell that holds a multi-codepoint grapheme.
 */
export function packCells(words: Uint32Array, count: number, onGrapheme: (index: number) => void): Uint32Array {
  const cells = new Uint32Array(count * 4);
  for (let i = 0; i < count; i++) {
    const base = i * 4;
    const w1 = words[base + 1];
    const w2 = words[base + 2];
    const w3 = words[base + 3];
    const fg = (w1 & 0xff) << 16 | ((w1 >>> 8) & 0xff) << 8 | ((w1 >>> 16) & 0xff);
    const bg = ((w1 >>> 24) & 0xff) << 16 | (w2 & 0xff) << 8 | ((w2 >>> 8) & 0xff);
    const flags = (w2 >>> 16) & 0xff;
    const width = (w2 >>> 24) & 0xff;
    cells[base] = words[base];
    cells[base + 1] = fg === SENTINEL_FG ? DEFAULT_COLOR : fg;
    cells[base + 2] = bg === SENTINEL_BG ? DEFAULT_COLOR : bg;
    cells[base + 3] = flags | (width << 8);
    if (((w3 >>> 16) & 0xff) > 0) onGrapheme(i);
  }
  return cells;
}

/** True for the cell record at `index` that is the right half (spacer) of a wide character: width 0. */
export function isSpacer(words: Uint32Array, index: number): boolean {
  return ((words[index * 4 + 2] >>> 24) & 0xff) === 0;
}

/**
 * The UTF-16 index, in its row's text (a wide character once, see
 * GridCursor.textIndex), of the cell at `at`; on a spacer, of the wide
 * character it belongs to. `cellText(col)` gives one cell's text.
 */
export function textIndexOf(words: Uint32Array, cols: number, at: { x: number; y: number }, cellText: (col: number) => string): number {
  let index = 0;
  let lastLength = 0;
  for (let col = 0; col < Math.min(at.x, cols); col++) {
    if (isSpacer(words, at.y * cols + col)) continue;
    lastLength = cellText(col).length;
    index += lastLength;
  }
  return at.x < cols && isSpacer(words, at.y * cols + at.x) ? index - lastLength : index;
}
