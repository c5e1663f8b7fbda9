/**
 * Blitting a pane's frame into less room than it has rows: rows go from the
 * top, as a terminal window shrinking does, so the last lines and the cursor
 * stay in view. An exited pane keeps its screen's old size, and showing its
 * top rows after the window shrank hid its last lines (its exit, its result).
 * And a narrow cell drawn over half of a wide character (the palette's border
 * over a CJK pane) must stay on screen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import xtermHeadless from '@xterm/headless';
import { CellBuffer } from '../../src/renderer/cell-buffer.js';
import { FrameWriter, type HostCursor } from '../../src/renderer/frame-writer.js';
import { DEFAULT_COLOR, type CellFrame } from '../../src/shared/pane-types.js';

const COLS = 6;

/** A frame whose rows hold `lines` (then blank rows up to `rows`), cursor at `cursorY`. */
function frameOf(lines: string[], rows: number, cursorY: number): CellFrame {
  const cells = new Uint32Array(rows * COLS * 4);
  for (let i = 0; i < rows * COLS; i++) cells.set([0, DEFAULT_COLOR, DEFAULT_COLOR, 1 << 8], i * 4);
  lines.forEach((line, row) => [...line].forEach((char, col) => (cells[(row * COLS + col) * 4] = char.codePointAt(0)!)));
  const modes = { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false };
  return { rows, cols: COLS, cells, graphemes: {}, cursor: { x: 0, y: cursorY, visible: true }, activeScreen: 'primary', screenVersion: 1, bracketedPaste: false, mouseTracking: false, modes };
}

function shownLines(buffer: CellBuffer): string[] {
  return Array.from({ length: buffer.rows }, (_, row) =>
    Array.from({ length: buffer.cols }, (_, col) => String.fromCodePoint(buffer.cells[(row * buffer.cols + col) * 4] || 0x20)).join('').trimEnd(),
  );
}

test('a frame taller than its room shows its last lines and the cursor row', () => {
  const buffer = new CellBuffer(COLS, 4);
  const lines = ['one', 'two', 'three', 'four', 'five', 'done'];
  const top = buffer.blit(frameOf(lines, 8, 6), { x: 0, y: 0, cols: COLS, rows: 4 });
  assert.equal(top, 3);
  assert.deepEqual(shownLines(buffer), ['four', 'five', 'done', '']);
});

test('blank rows below the cursor go first', () => {
  const buffer = new CellBuffer(COLS, 4);
  const top = buffer.blit(frameOf(['$ ls', 'a b', '$'], 10, 2), { x: 0, y: 0, cols: COLS, rows: 4 });
  assert.equal(top, 0);
  assert.deepEqual(shownLines(buffer), ['$ ls', 'a b', '$', '']);
});

test("a row written below the cursor stays in view (a full-screen program's status line)", () => {
  const buffer = new CellBuffer(COLS, 3);
  const top = buffer.blit(frameOf(['text', '', '', '', 'status'], 5, 0), { x: 0, y: 0, cols: COLS, rows: 3 });
  assert.equal(top, 2);
  assert.deepEqual(shownLines(buffer), ['', '', 'status']);
});

test('a frame that fits is drawn from its first row', () => {
  const buffer = new CellBuffer(COLS, 6);
  assert.equal(buffer.blit(frameOf(['a', 'b'], 4, 3), { x: 0, y: 1, cols: COLS, rows: 5 }), 0);
  assert.deepEqual(shownLines(buffer), ['', 'a', 'b', '', '', '']);
});

const HIDDEN: HostCursor = { x: 0, y: 0, visible: false, shape: 0 };

test('an overlay border over the right half of a wide character survives the pane changing under it', async () => {
  const term = new xtermHeadless.Terminal({ cols: 10, rows: 1, allowProposedApi: true });
  const write = (text: string) => new Promise<void>((resolve) => term.write(text, resolve));
  const writer = new FrameWriter();
  const frame = (pane: string) => {
    const buffer = new CellBuffer(10, 1);
    buffer.text(0, 0, pane); // the pane's cells
    buffer.text(2, 0, '│'); // the palette's left border on top
    return buffer;
  };
  await write(writer.render(frame('中中中中中'), HIDDEN).text);
  await write(writer.render(frame(' 中中中中'), HIDDEN).text); // the pane scrolled: its wide characters moved one column
  const shown = term.buffer.active.getLine(0)!.translateToString(true).trimEnd();
  const expected = new FrameWriter();
  const fresh = new xtermHeadless.Terminal({ cols: 10, rows: 1, allowProposedApi: true });
  await new Promise<void>((resolve) => fresh.write(expected.render(frame(' 中中中中'), HIDDEN).text, resolve));
  assert.equal(shown, fresh.buffer.active.getLine(0)!.translateToString(true).trimEnd(), 'the incremental frame matches a full repaint');
  assert.ok(shown.includes('│'), `the border is on screen: ${JSON.stringify(shown)}`);
});
