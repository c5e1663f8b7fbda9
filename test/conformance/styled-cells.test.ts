/**
 * The style comparison the conformance suite rests on: one colour however it
 * is spelled, a real difference always found, and patterm's cells written as
 * SGR rows that read back to the styles they hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { styleDifferences, styledChars } from './styled-cells.js';
import { styledRows } from '../../src/shared/styled-line.js';
import { CellFlag, DEFAULT_COLOR, type CellFrame } from '../../src/shared/pane-types.js';

test('one colour spelled four ways reads as one style', () => {
  const spellings = ['\x1b[31mx', '\x1b[38;5;1mx', '\x1b[38;2;205;0;0mx', '\x1b[38:2::205:0:0mx'];
  const styles = spellings.map((row) => styledChars([row])[0][0].style);
  assert.equal(new Set(styles).size, 1, styles.join(' | '));
  assert.deepEqual(styleDifferences([spellings[0]], [spellings[1]]), []);
});

test('a different attribute or colour is reported with its row and character', () => {
  assert.deepEqual(styleDifferences(['ab\x1b[1mc'], ['ab\x1b[2mc']), ['row 0, character 2: expected "c" default/default/1, got "c" default/default/2']);
  assert.equal(styleDifferences(['\x1b[44m  x'], ['  x']).length, 1, 'a background under leading spaces counts');
  assert.equal(styleDifferences(['\x1b[7mbar   '], ['bar']).length, 1, 'trailing inverse spaces count');
});

test('the pen carries from row to row, as capture-pane assumes; tmux spells overline 5:3', () => {
  assert.deepEqual(
    styledChars(['\x1b[32ma', 'b\x1b[0m', '\x1b[5:3mc']).map((row) => row.map((c) => c.style)),
    [['#00cd00/default/'], ['#00cd00/default/'], ['default/default/53']],
  );
});

test('trailing spaces with only a background are dropped, as capture-pane drops erased cells', () => {
  assert.deepEqual(styleDifferences(['abc'], ['abc\x1b[44m   \x1b[0m']), []);
});

test("patterm's cells written as SGR rows read back to their styles", () => {
  const cols = 6;
  const cells = new Uint32Array(cols * 2 * 4);
  const put = (index: number, text: string, fg: number, bg: number, flags: number, width = 1) =>
    cells.set([text.codePointAt(0)!, fg, bg, flags | (width << 8)], index * 4);
  for (let i = 0; i < cols * 2; i++) put(i, ' ', DEFAULT_COLOR, DEFAULT_COLOR, 0);
  put(0, 'a', 0xcd0000, DEFAULT_COLOR, CellFlag.Bold);
  put(1, '漢', 0x0a141e, 0x5c5cff, 0, 2);
  cells.set([0, 0x0a141e, 0x5c5cff, 0], 2 * 4); // the wide character's spacer
  put(3, 'b', DEFAULT_COLOR, DEFAULT_COLOR, CellFlag.Underline | CellFlag.Inverse);
  put(cols, 'c', 0xff0000, DEFAULT_COLOR, 0);
  const frame = { rows: 2, cols, cells, graphemes: {} } as unknown as CellFrame;
  const rows = styledRows(frame);
  assert.deepEqual(rows, ['\x1b[1;31ma\x1b[0;38;2;10;20;30;104m漢\x1b[4;7;39;49mb\x1b[0m', '\x1b[91mc\x1b[0m']);
  assert.deepEqual(
    styledChars(rows).map((row) => row.map((c) => `${c.text} ${c.style}`)),
    [['a #cd0000/default/1', '漢 #0a141e/#5c5cff/', 'b default/default/4,7'], ['c #ff0000/default/']],
  );
});
