/**
 * FrameWriter sends only what changed, wrapped in synchronized output, and
 * handles wide characters, graphemes and the cursor. Checked by replaying its
 * output into a real terminal emulator (@xterm/headless) and reading the screen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import xtermHeadless from '@xterm/headless';
import { CellBuffer, DEFAULT_STYLE } from '../../src/renderer/cell-buffer.js';
import { FrameWriter, type HostCursor } from '../../src/renderer/frame-writer.js';
import { SYNC_BEGIN, SYNC_END } from '../../src/renderer/host-modes.js';
import { CellFlag, DEFAULT_COLOR } from '../../src/shared/pane-types.js';

const COLS = 20;
const ROWS = 4;
const HIDDEN: HostCursor = { x: 0, y: 0, visible: false, shape: 0 };

function terminal() {
  return new xtermHeadless.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
}

function write(term: InstanceType<typeof xtermHeadless.Terminal>, text: string): Promise<void> {
  return new Promise((resolve) => term.write(text, resolve));
}

function screen(term: InstanceType<typeof xtermHeadless.Terminal>): string[] {
  const lines: string[] = [];
  for (let y = 0; y < ROWS; y++) lines.push(term.buffer.active.getLine(y)!.translateToString(true));
  return lines;
}

test('the first frame clears and draws; an unchanged frame sends nothing; a change sends only the changed cells', async () => {
  const writer = new FrameWriter();
  const buffer = new CellBuffer(COLS, ROWS);
  buffer.text(0, 0, 'hello world');
  buffer.text(0, 2, 'third row');
  const first = writer.render(buffer, HIDDEN);
  assert.ok(first.text.startsWith(SYNC_BEGIN) && first.text.endsWith(SYNC_END), 'wrapped in DEC 2026');
  assert.match(first.text, /\x1b\[2J/);
  const term = terminal();
  await write(term, first.text);
  assert.deepEqual(screen(term), ['hello world', '', 'third row', '']);

  assert.equal(writer.render(buffer, HIDDEN).text, '', 'nothing changed, nothing sent');

  buffer.text(6, 0, 'there');
  const second = writer.render(buffer, HIDDEN);
  assert.equal(second.cells, 5, 'five cells changed');
  assert.doesNotMatch(second.text, /third|hello|\x1b\[2J/, 'unchanged text is not resent');
  await write(term, second.text);
  assert.deepEqual(screen(term), ['hello there', '', 'third row', '']);
});

test('wide characters and graphemes land in the right columns, and replacing them leaves no debris', async () => {
  const writer = new FrameWriter();
  const buffer = new CellBuffer(COLS, ROWS);
  const term = terminal();
  buffer.text(0, 0, 'a漢字b e\u0301 👍🏽!');
  await write(term, writer.render(buffer, HIDDEN).text);
  assert.equal(screen(term)[0], 'a漢字b e\u0301 👍🏽!');
  // A wide character turns into two narrow ones, and a narrow pair into a wide one.
  buffer.text(0, 0, 'axy字');
  await write(term, writer.render(buffer, HIDDEN).text);
  assert.ok(screen(term)[0].startsWith('axy字b e\u0301'), screen(term)[0]);
  buffer.text(1, 0, '漢');
  await write(term, writer.render(buffer, HIDDEN).text);
  assert.ok(screen(term)[0].startsWith('a漢字b'), screen(term)[0]);
});

test('styles are sent as SGR: theme colours as palette indices, others as RGB; the cursor is placed and shaped', async () => {
  const writer = new FrameWriter();
  const buffer = new CellBuffer(COLS, ROWS);
  buffer.text(0, 0, 'R', { fg: 0xcd0000, bg: DEFAULT_COLOR, flags: CellFlag.Bold }); // palette red, bold
  buffer.text(1, 0, 'C', { fg: 0x5fafff, bg: DEFAULT_COLOR, flags: 0 }); // 256-colour cube entry 75
  buffer.text(2, 0, 'X', { fg: 0x123456, bg: 0x000001, flags: CellFlag.Underline });
  buffer.text(3, 0, 'd', DEFAULT_STYLE);
  const out = writer.render(buffer, { x: 5, y: 2, visible: true, shape: 6 }).text;
  assert.match(out, /\x1b\[0;1;31mR/);
  assert.match(out, /\x1b\[0;38;5;75mC/);
  assert.match(out, /\x1b\[0;4;38;2;18;52;86;48;2;0;0;1mX/);
  assert.match(out, /\x1b\[0md/);
  assert.match(out, /\x1b\[6 q/, 'cursor shape');
  assert.match(out, /\x1b\[3;6H\x1b\[\?25h/, 'cursor placed and shown');
  const term = terminal();
  await write(term, out);
  assert.equal(term.buffer.active.cursorX, 5);
  assert.equal(term.buffer.active.cursorY, 2);
  const cell = term.buffer.active.getLine(0)!.getCell(0)!;
  assert.equal(cell.getFgColor(), 1, 'red as palette colour 1');
  assert.ok(cell.isBold());
  // Only the cursor moves: no cells are drawn.
  const moved = writer.render(buffer, { x: 6, y: 2, visible: true, shape: 6 });
  assert.equal(moved.cells, 0);
  assert.match(moved.text, /\x1b\[3;7H/);
});

test('after invalidate() (a resize) the next frame repaints everything', () => {
  const writer = new FrameWriter();
  const buffer = new CellBuffer(COLS, ROWS);
  buffer.text(0, 0, 'abc');
  writer.render(buffer, HIDDEN);
  writer.invalidate();
  const again = writer.render(buffer, HIDDEN);
  assert.match(again.text, /\x1b\[2J/);
  assert.ok(again.text.includes('abc'));
});
