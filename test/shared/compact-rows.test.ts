/**
 * packRows keeps a frame's rows without their trailing empty cells and must
 * give every row back exactly: cut too much and a frozen pane's history loses
 * a coloured background, a trailing space or a grapheme in the last column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packRows, unpackRows } from '../../src/shared/compact-rows.js';
import { DEFAULT_COLOR, type CellFrame } from '../../src/shared/pane-types.js';

const COLS = 12;
const BLANK = [0, DEFAULT_COLOR, DEFAULT_COLOR, 1 << 8];
const ERASED_BLUE = [0, DEFAULT_COLOR, 0x0000ff, 1 << 8];

/** One row per case: [cells as words, graphemes by column]. */
function frameOf(rows: [number[][], Record<number, string>][]): CellFrame {
  const cells = new Uint32Array(rows.length * COLS * 4);
  const graphemes: Record<number, string> = {};
  rows.forEach(([row, rowGraphemes], y) => {
    row.forEach((cell, x) => cells.set(cell, (y * COLS + x) * 4));
    for (const [x, text] of Object.entries(rowGraphemes)) graphemes[y * COLS + Number(x)] = text;
  });
  const modes = { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false };
  return { rows: rows.length, cols: COLS, cells, graphemes, cursor: { x: 3, y: 1, visible: true }, activeScreen: 'primary', screenVersion: 7, bracketedPaste: false, mouseTracking: false, modes };
}

const char = (c: string, fg = DEFAULT_COLOR) => [c.codePointAt(0)!, fg, DEFAULT_COLOR, 1 << 8];
const text = (s: string) => [...s].map((c) => char(c));
const pad = (cells: number[][], fill: number[]) => [...cells, ...Array.from({ length: COLS - cells.length }, () => fill)];

const FRAME = frameOf([
  [pad(text('ok'), BLANK), {}],
  [pad([], BLANK), {}], // an empty row
  [pad(text('trailing  '), BLANK), {}], // spaces are characters, not blanks
  [pad(text('blue'), ERASED_BLUE), {}], // erased in a colour: the colour must come back
  [text('full to edge'), {}],
  [pad([...text('wide'), [0x6f22, DEFAULT_COLOR, DEFAULT_COLOR, 2 << 8], [0, DEFAULT_COLOR, DEFAULT_COLOR, 0]], BLANK), {}],
  [pad(text('e'), BLANK), { 0: 'e\u0301' }],
  [pad(text('x'), BLANK).map((cell, x) => (x === COLS - 1 ? [0, DEFAULT_COLOR, DEFAULT_COLOR, 1 << 8] : cell)), { [COLS - 1]: '👍🏽' }], // a grapheme in the last column
  [pad([char('r', 0xff0000)], BLANK), {}],
]);

function expectedSlice(start: number, count: number): { cells: Uint32Array; graphemes: Record<number, string> } {
  const graphemes: Record<number, string> = {};
  for (const [index, value] of Object.entries(FRAME.graphemes)) {
    const at = Number(index) - start * COLS;
    if (at >= 0 && at < count * COLS) graphemes[at] = value;
  }
  return { cells: FRAME.cells.slice(start * COLS * 4, (start + count) * COLS * 4), graphemes };
}

test('every slice of the rows comes back exactly as it was', () => {
  // Through a structured clone, as the rows cross from the worker.
  const packed = structuredClone(packRows(FRAME));
  for (let start = 0; start < FRAME.rows; start++) {
    for (let count = 0; start + count <= FRAME.rows; count++) {
      const frame = unpackRows(packed, start, count);
      const expected = expectedSlice(start, count);
      assert.equal(frame.rows, count);
      assert.equal(frame.cols, COLS);
      assert.deepEqual(frame.cells, expected.cells, `rows ${start}..${start + count}`);
      assert.deepEqual(frame.graphemes, expected.graphemes, `graphemes of rows ${start}..${start + count}`);
      assert.deepEqual(frame.cursor, FRAME.cursor);
    }
  }
});

test('blank tails are not stored: a frame of short rows keeps a fraction of its cells', () => {
  const rows = Array.from({ length: 200 }, (_, i): [number[][], Record<number, string>] => [pad(text(String(i)), BLANK), {}]);
  const frame = frameOf(rows);
  const packed = packRows(frame);
  const bytes = packed.codepoints.byteLength + packed.styleOf.byteLength + packed.styles.byteLength + packed.fills.byteLength + packed.starts.byteLength;
  assert.ok(bytes <= frame.cells.byteLength / 4, `kept ${bytes} of ${frame.cells.byteLength} bytes`);
  assert.equal(packed.styles.length, 3, 'one style');
  assert.deepEqual(unpackRows(packed, 0, 200).cells, frame.cells);
});

test('more styles than 16-bit indices hold (a truecolour gradient) still come back exactly', () => {
  const rows = 700;
  const cols = 100;
  const cells = new Uint32Array(rows * cols * 4);
  for (let i = 0; i < rows * cols; i++) cells.set([0x2588, i, DEFAULT_COLOR, 1 << 8], i * 4); // every cell its own colour
  const frame: CellFrame = { ...FRAME, rows, cols, cells, graphemes: {} };
  const packed = structuredClone(packRows(frame));
  assert.ok(packed.styleOf instanceof Uint32Array, 'indices widened past 65536 styles');
  assert.deepEqual(unpackRows(packed, 0, rows).cells, cells);
  assert.deepEqual(unpackRows(packed, 650, 50).cells, cells.slice(650 * cols * 4));
});
