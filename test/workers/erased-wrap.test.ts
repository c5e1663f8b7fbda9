/**
 * A CR-then-EL on a row that went on with the line above ends that soft wrap,
 * as xterm and tmux do: widened, the rows stay apart. ghostty-web 0.4.0 keeps
 * the wrap and joins them; GhosttyEmulator mends it as it writes, keeping
 * every cell's text and style and the program's pen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { ErasedWrapMatcher } from '../../src/workers/erased-wrap-matcher.js';
import { CellFlag, DEFAULT_COLOR } from '../../src/shared/pane-types.js';

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

/** What zsh 5.9 writes for a command line typed past the right edge of 40 columns (captured): at each edge a space that wraps, CR, EL, then the row again. */
const ZSH_WRAPPED_LINE = '$ echo the quick brown fox jumps over th \r\x1b[Ke\re lazy dog and keeps running to the edge \r\x1b[K';

async function emulator(cols: number, rows: number): Promise<GhosttyEmulator> {
  return new GhosttyEmulator(await loadGhosttyModule(), { cols, rows, scrollbackBytes: 1 << 20 });
}

function cell(screen: GhosttyEmulator, x: number, y: number) {
  const frame = screen.cellFrame(0);
  const at = (y * frame.cols + x) * 4;
  return { text: String.fromCodePoint(frame.cells[at] || 0x20), fg: frame.cells[at + 1], bg: frame.cells[at + 2], flags: frame.cells[at + 3] & 0xff };
}

/** What readline (bash 5.2) writes on a resize, under a command line that took three rows (captured): each row erased from the first column. */
const READLINE_REDRAW = '\r\x1b[K\r\x1b[A\x1b[K\r\x1b[A\x1b[K\r$ echo the quick';

/** Just past every EL in `text` but EL 1 (each test text has no other K). */
const endsOf = (text: string) => {
  const found: number[] = [];
  for (let at = text.indexOf('K'); at !== -1; at = text.indexOf('K', at + 1)) if (text[at - 1] !== '1') found.push(at + 1);
  return found;
};

test('the matcher finds EL 0 or 2 after CR, and nothing else', () => {
  const matcher = new ErasedWrapMatcher();
  const text = 'a\r\x1b[Kb\r\x1b[0Kc\r\x1b[2Kd\r\x1b[1Ke\r\x1b[3Kf\r\x1b[02Kg\x1b[K\r\nh\r\x1b[J\x1b[Ki\rx\x1b[K';
  assert.deepEqual(matcher.ends(bytes(text)), [text.indexOf('b'), text.indexOf('c'), text.indexOf('d')]);
});

test("the matcher follows the cursor up and down and through other erases after a CR, as readline's redraw goes", () => {
  const matcher = new ErasedWrapMatcher();
  assert.deepEqual(matcher.ends(bytes(READLINE_REDRAW)), endsOf(READLINE_REDRAW));
  const moves = 'x\r\x1b[3A\x1b[2K\x1b[12B\x1b[1K\x1b[0Ky\x1b[K';
  assert.deepEqual(new ErasedWrapMatcher().ends(bytes(moves)), [moves.indexOf('2K') + 2, moves.indexOf('0K') + 2]);
  const sideways = '\r\x1b[5C\x1b[K\r\x1b[2D\x1b[K';
  assert.deepEqual(new ErasedWrapMatcher().ends(bytes(sideways)), [], 'a move sideways ends the chain');
});

test('the matcher finds every erase of a chain cut anywhere by the end of a write', () => {
  for (const chain of ['\r\x1b[K', '\r\x1b[0K', '\r\x1b[2K', READLINE_REDRAW, '\r\x1b[10A\x1b[2K']) {
    const text = `ab${chain}cd`;
    const expected = endsOf(text).filter((end) => end > 2);
    for (let cut = 1; cut < text.length; cut++) {
      const matcher = new ErasedWrapMatcher();
      const first = matcher.ends(bytes(text.slice(0, cut)));
      const second = matcher.ends(bytes(text.slice(cut))).map((end) => end + cut);
      assert.deepEqual([...first, ...second], expected, `${JSON.stringify(chain)} cut at ${cut}`);
    }
  }
});

test('the matcher finds matches written a byte at a time, and no false one after a carried CR', () => {
  const text = 'x\r\r\x1b[K\r\x1b[1K\r\x1b\r\x1b[2K' + READLINE_REDRAW;
  const matcher = new ErasedWrapMatcher();
  const ends: number[] = [];
  for (let at = 0; at < text.length; at++) ends.push(...matcher.ends(bytes(text[at])).map((end) => end + at));
  assert.deepEqual(ends, endsOf(text));
});

test("zsh's wrapped command line keeps its rows apart when widened, as in xterm", async () => {
  const screen = await emulator(40, 6);
  screen.write(bytes(ZSH_WRAPPED_LINE));
  assert.deepEqual(screen.plainLines().slice(0, 3), ['$ echo the quick brown fox jumps over th', 'e lazy dog and keeps running to the edge', '']);
  assert.deepEqual({ ...screen.cursor(), visible: true }, { x: 0, y: 2, visible: true });
  screen.resize(60, 6);
  assert.deepEqual(screen.plainLines().slice(0, 3), ['$ echo the quick brown fox jumps over th', 'e lazy dog and keeps running to the edge', '']);
  assert.equal(screen.cursor().y, 2, 'zsh redraws from two rows up: the line must still take three rows');
});

test('the same bytes a byte at a time leave the same screen', async () => {
  const whole = await emulator(40, 6);
  const bytewise = await emulator(40, 6);
  whole.write(bytes(ZSH_WRAPPED_LINE));
  for (const byte of bytes(ZSH_WRAPPED_LINE)) bytewise.write(Uint8Array.of(byte));
  for (const screen of [whole, bytewise]) screen.resize(60, 6);
  assert.deepEqual(bytewise.plainLines(), whole.plainLines());
  assert.deepEqual(bytewise.cursor(), whole.cursor());
});

test("the mended cell keeps its style and the program's pen is as it was", async () => {
  const screen = await emulator(10, 4);
  // Row 0 ends in a green, bold 'Z'; a red-background, italic pen erases the row the wrap began.
  screen.write(bytes('012345678\x1b[1;32mZ\x1b[0m \x1b[3;41m\r\x1b[K'));
  screen.write(bytes('P'));
  assert.deepEqual(cell(screen, 9, 0), { text: 'Z', fg: 0x00cd00, bg: DEFAULT_COLOR, flags: CellFlag.Bold });
  const written = cell(screen, 0, 1);
  assert.equal(written.text, 'P');
  assert.equal(written.bg, 0xcd0000, 'the pen keeps its red background');
  assert.equal(written.flags, CellFlag.Italic, 'the pen keeps italic, and nothing of the mended cell');
  assert.equal(cell(screen, 5, 1).bg, 0xcd0000, 'the erased row is filled with the pen background, probe gone');
  assert.equal(cell(screen, 1, 1).text, ' ');
  screen.resize(20, 4);
  assert.deepEqual(screen.plainLines().slice(0, 2), ['012345678Z', 'P']);
});

test('a wide character at the right edge is written back whole', async () => {
  const screen = await emulator(10, 4);
  screen.write(bytes('01234567漢x\r\x1b[K'));
  assert.deepEqual(screen.plainLines().slice(0, 2), ['01234567漢', '']);
  screen.resize(20, 4);
  assert.deepEqual(screen.plainLines().slice(0, 2), ['01234567漢', '']);
  assert.deepEqual({ x: screen.cursor().x, y: screen.cursor().y }, { x: 0, y: 1 });
});

test('a row that does not go on from above, and the DEC line-drawing set, are left as they were', async () => {
  const screen = await emulator(10, 4);
  screen.write(bytes('abc\r\nde\r\x1b[Kfg'));
  assert.deepEqual(screen.plainLines().slice(0, 2), ['abc', 'fg']);
  const drawing = await emulator(10, 4);
  // With line drawing in use the probe's 'q' reads back as a line, and the wrap is left joined rather than risk writing 'q' back wrong.
  drawing.write(bytes('\x1b(0qqqqqqqqqq \r\x1b[K\x1b(Bok'));
  assert.deepEqual(drawing.plainLines().slice(0, 2), ['──────────', 'ok']);
  drawing.resize(20, 4);
  assert.deepEqual(drawing.plainLines().slice(0, 1), ['──────────ok']);
});

test('the alternate screen is left to ghostty', async () => {
  const screen = await emulator(10, 4);
  screen.write(bytes('\x1b[?1049h0123456789x\r\x1b[Kab'));
  assert.deepEqual(screen.plainLines().slice(0, 2), ['0123456789', 'ab']);
  assert.equal(screen.isAlternateScreen(), true);
});
