/** styled-line.ts: rows of a real emulator's screen as text with SGR sequences, and the parser that reads them back. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { parseStyledLine, STYLED_OVERLINE, styledRows } from '../../src/shared/styled-line.js';
import { CellFlag, DEFAULT_COLOR } from '../../src/shared/pane-types.js';

const ESC = '\x1b';

/** The styled rows of a 30x`lines.length` screen that `lines` were written to, one per row. */
async function styledScreen(lines: string[]): Promise<string[]> {
  const emulator = new GhosttyEmulator(await loadGhosttyModule(), { cols: 30, rows: lines.length, scrollbackBytes: 10_000 });
  emulator.write(new TextEncoder().encode(lines.join('\r\n')));
  return styledRows(emulator.cellFrame(1));
}

test('each SGR attribute and colour form comes back in the shortest form that names it', async () => {
  const table: [string, string][] = [
    [`${ESC}[1mbold${ESC}[0m plain`, `${ESC}[1mbold${ESC}[0m plain`],
    [`${ESC}[2mdim${ESC}[3mitalic${ESC}[0m`, `${ESC}[2mdim${ESC}[3mitalic${ESC}[0m`],
    [`${ESC}[4mu${ESC}[5mb${ESC}[7mi${ESC}[8mh${ESC}[9ms${ESC}[0m`, `${ESC}[4mu${ESC}[5mb${ESC}[7mi${ESC}[8mh${ESC}[9ms${ESC}[0m`],
    [`${ESC}[31mred${ESC}[39m default`, `${ESC}[31mred${ESC}[39m default`],
    [`${ESC}[30;47mblack on white${ESC}[0m`, `${ESC}[30;47mblack on white${ESC}[0m`],
    [`${ESC}[38;5;0mblack by index${ESC}[0m`, `${ESC}[30mblack by index${ESC}[0m`],
    [`${ESC}[94;101mbright${ESC}[0m`, `${ESC}[94;101mbright${ESC}[0m`],
    [`${ESC}[38;5;208;48;5;236m256${ESC}[0m`, `${ESC}[38;5;208;48;5;236m256${ESC}[0m`],
    [`${ESC}[38;5;196mcube red is bright red${ESC}[0m`, `${ESC}[91mcube red is bright red${ESC}[0m`],
    [`${ESC}[38;2;1;2;3;48;2;250;128;7mtrue${ESC}[0m`, `${ESC}[38;2;1;2;3;48;2;250;128;7mtrue${ESC}[0m`],
    [`${ESC}[1;32mon${ESC}[22moff`, `${ESC}[1;32mon${ESC}[0;32moff${ESC}[0m`],
  ];
  const rows = await styledScreen(table.map(([input]) => input));
  assert.deepEqual(rows, table.map(([, expected]) => expected));
});

test('styled trailing blanks are kept (a highlighted bar), plain ones dropped, and the line ends in the default pen', async () => {
  const [bar, plain] = await styledScreen([`${ESC}[44m menu ${ESC}[K${ESC}[0m`, 'text   ']);
  assert.equal(bar, `${ESC}[44m menu ${' '.repeat(24)}${ESC}[0m`);
  assert.equal(plain, 'text');
});

test('a wide character or grapheme is written once, in its cell style', async () => {
  const [row] = await styledScreen([`日本${ESC}[7m語${ESC}[0m 👍🏽!`]);
  assert.equal(row, `日本${ESC}[7m語${ESC}[0m 👍🏽!`);
});

test('overline is not reported: ghostty-web 0.4.0 cell records carry no flag for it', async () => {
  const [row] = await styledScreen([`${ESC}[53mover${ESC}[55m`]);
  assert.equal(row, 'over');
});

test('parsing a styled row gives each character the style its cell has', async () => {
  const rows = await styledScreen([`a${ESC}[1;3;38;5;208mb${ESC}[22;48;2;9;8;7mc${ESC}[0;91;7md`]);
  assert.deepEqual(parseStyledLine(rows[0]), [
    { text: 'a', fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 },
    { text: 'b', fg: 0xff8700, bg: DEFAULT_COLOR, flags: CellFlag.Bold | CellFlag.Italic },
    { text: 'c', fg: 0xff8700, bg: 0x090807, flags: CellFlag.Italic },
    { text: 'd', fg: 0xff0000, bg: DEFAULT_COLOR, flags: CellFlag.Inverse },
  ]);
});

test("the parser reads tmux's forms: colon sub-parameters, underline styles, overline and non-SGR sequences", () => {
  const chars = parseStyledLine(`${ESC}[38:2::1:2:3;4:3mx${ESC}[4:0;53;48:5:21my${ESC}[55;49;39m${ESC}(Bz`);
  assert.deepEqual(chars, [
    { text: 'x', fg: 0x010203, bg: DEFAULT_COLOR, flags: CellFlag.Underline },
    { text: 'y', fg: 0x010203, bg: 0x0000ff, flags: STYLED_OVERLINE },
    { text: 'z', fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, flags: 0 },
  ]);
});
