/**
 * A compacted emulator must show exactly what the old one showed: same cells
 * (text, colours, attributes, widths), graphemes, cursor, active screen and
 * modes, and keep the scrollback when it can.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { compactEmulator } from '../../src/workers/emulator-compaction.js';
import { frameLines } from '../../src/shared/frame-text.js';
import { DEFAULT_COLOR } from '../../src/shared/pane-types.js';
import { manyStyles, paintedBytes } from '../helpers/many-styles.js';

const SIZE = { cols: 40, rows: 8, scrollbackBytes: 2000 };

async function roundTrip(output: string): Promise<{ before: GhosttyEmulator; after: GhosttyEmulator }> {
  const module = await loadGhosttyModule();
  const before = new GhosttyEmulator(module, SIZE);
  before.write(new TextEncoder().encode(output));
  const after = new GhosttyEmulator(module, SIZE);
  after.write(new TextEncoder().encode(before.serialize()));
  return { before, after };
}

function assertSameScreen(before: GhosttyEmulator, after: GhosttyEmulator): void {
  const a = before.cellFrame(1);
  const b = after.cellFrame(1);
  assert.deepEqual(Array.from(b.cells), Array.from(a.cells), 'cells');
  assert.deepEqual(b.graphemes, a.graphemes, 'graphemes');
  assert.deepEqual(b.cursor, a.cursor, 'cursor');
  assert.equal(b.activeScreen, a.activeScreen);
  assert.deepEqual(b.modes, a.modes);
  assert.equal(b.bracketedPaste, a.bracketedPaste);
  assert.deepEqual(after.plainLines(), before.plainLines());
}

test('colours, attributes, wide characters and graphemes survive a round trip', async () => {
  const { before, after } = await roundTrip(
    '\x1b[1;31mbold red\x1b[0m plain \x1b[38;2;10;200;30;48;5;236;4munder\x1b[0m\r\n' +
      '世界 wide, e\u0301 combined, \u2764\ufe0f emoji\r\n' +
      '\x1b[7minverse\x1b[27m \x1b[3;9mitalic struck\x1b[0m\r\n' +
      `${'x'.repeat(40)}\x1b[44m  \x1b[0m\r\n` +
      '\x1b[6;12Hcursor here',
  );
  assertSameScreen(before, after);
});

test('the alternate screen, cursor visibility and input modes are restored', async () => {
  const { before, after } = await roundTrip('\x1b[?1049h\x1b[?1h\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?25l\x1b[H\x1b[32mvim-like\x1b[0m\x1b[3;5H');
  assert.equal(before.isAlternateScreen(), true);
  assertSameScreen(before, after);
  assert.equal(after.getMode(25, true), false, 'cursor stays hidden');
});

test('grapheme clustering that a program turned on stays on, and its wide graphemes keep their width', async () => {
  const { before, after } = await roundTrip('\x1b[?2027h❤️x 👍🏽y');
  assert.equal(before.plainLines()[0], '❤️x 👍🏽y');
  assertSameScreen(before, after);
  assert.equal(after.getMode(2027, true), true);
});

/** 60 lines of coloured log with wide characters, in an 8-row screen: 52 of them in the scrollback. */
const LOG = Array.from({ length: 60 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m ${i % 7 === 0 ? '世界 ' : ''}\x1b[1mok\x1b[0m`).join('\r\n');

function assertSameHistory(before: GhosttyEmulator, after: GhosttyEmulator): void {
  const a = before.history(0, 1000);
  const b = after.history(0, 1000);
  assert.equal(b.total, a.total, 'as many history rows');
  assert.deepEqual(Array.from(b.frame.cells), Array.from(a.frame.cells), 'the same cells in every history row');
  assert.deepEqual(b.frame.graphemes, a.frame.graphemes);
}

test('compaction keeps the scrollback, colours and all, and then the same screen', async () => {
  const module = await loadGhosttyModule();
  const size = { cols: 40, rows: 8, scrollbackBytes: 1 << 20 };
  const before = new GhosttyEmulator(module, size);
  before.write(new TextEncoder().encode(LOG));
  const compaction = compactEmulator(before, () => new GhosttyEmulator(module, size), Number.MAX_SAFE_INTEGER);
  assert.equal(compaction?.scrollback, 'styled');
  const after = compaction.emulator;
  assertSameHistory(before, after);
  assertSameScreen(before, after);
  assert.equal(before.history(0, 1).total, 60, 'the check covered 52 scrollback rows and the screen');
});

/** Compactions that cannot keep even the scrollback's text: [why, size limit, paint budget, what the check says]. */
const SCREEN_ONLY_CASES: [string, number, number, string][] = [
  ['when replaying the scrollback would leave the fresh emulator too big, only the screen is kept', 1, Number.POSITIVE_INFINITY, 'too big with its text alone too'],
  // A budget already spent: the check before the first slice gives the scrollback up.
  ['when painting the scrollback runs past its budget, only the screen is kept', Number.MAX_SAFE_INTEGER, -1, 'past its budget with its text alone too'],
];

for (const [name, limitBytes, budgetMs, why] of SCREEN_ONLY_CASES) {
  test(name, async () => {
    const module = await loadGhosttyModule();
    const size = { cols: 40, rows: 8, scrollbackBytes: 1 << 20 };
    const before = new GhosttyEmulator(module, size);
    before.write(new TextEncoder().encode(LOG));
    const compaction = compactEmulator(before, () => new GhosttyEmulator(module, size), limitBytes, budgetMs);
    assert.equal(compaction?.scrollback, 'none', why);
    const after = compaction.emulator;
    assert.equal(after.history(0, 1).total, 8, 'no scrollback');
    assertSameScreen(before, after);
  });
}

test('on the alternate screen, compaction paints the alternate screen as before', async () => {
  const module = await loadGhosttyModule();
  const size = { cols: 40, rows: 8, scrollbackBytes: 1 << 20 };
  const before = new GhosttyEmulator(module, size);
  before.write(new TextEncoder().encode(`${LOG}\x1b[?1049h\x1b[H\x1b[32mfull screen\x1b[0m`));
  const after = compactEmulator(before, () => new GhosttyEmulator(module, size), Number.MAX_SAFE_INTEGER)?.emulator;
  assert.ok(after);
  assertSameScreen(before, after);
});

test('when the styled scrollback would bloat the fresh emulator, its text is carried over plain, and the screen keeps its styles', async () => {
  const module = await loadGhosttyModule();
  const size = { cols: 40, rows: 8, scrollbackBytes: 1 << 20 };
  const before = new GhosttyEmulator(module, size);
  for (let i = 0; i < 10; i++) before.write(new TextEncoder().encode(manyStyles(200, i + 1)));
  before.write(new TextEncoder().encode('\x1b[1;35mon screen\x1b[0m'));
  // What each way of painting costs a fresh emulator: a limit between them leaves room for the text alone.
  const styledBytes = paintedBytes(module, size, before, 'styled');
  const plainBytes = paintedBytes(module, size, before, 'plain');
  assert.ok(plainBytes < styledBytes, `plain text takes less room (${plainBytes} against ${styledBytes} bytes)`);
  const compaction = compactEmulator(before, () => new GhosttyEmulator(module, size), plainBytes + styledBytes);
  assert.equal(compaction?.scrollback, 'plain');
  const after = compaction.emulator;
  const a = before.history(0, 100_000);
  const b = after.history(0, 100_000);
  assert.equal(b.total, a.total, 'every history row');
  assert.deepEqual(frameLines(b.frame), frameLines(a.frame), 'with the same text');
  const scrollbackRows = a.total - size.rows;
  const colours = new Set<number>();
  for (let cell = 0; cell < scrollbackRows * size.cols; cell++) colours.add(b.frame.cells[cell * 4 + 1]).add(b.frame.cells[cell * 4 + 2]);
  assert.deepEqual([...colours], [DEFAULT_COLOR], 'in the default style');
  assertSameScreen(before, after);
});

test('a fresh emulator holding a full scrollback of many styles keeps parsing: the replay goes in batches', async () => {
  // In one 700 KB write, this replay left ghostty-web 0.4.0 to trap on the very next write.
  const module = await loadGhosttyModule();
  const size = { cols: 120, rows: 40, scrollbackBytes: 4 << 20 };
  const before = new GhosttyEmulator(module, size);
  const encoder = new TextEncoder();
  for (let i = 0; i < 40; i++) before.write(encoder.encode(manyStyles(200, i + 1)));
  const after = compactEmulator(before, () => new GhosttyEmulator(module, size), Number.MAX_SAFE_INTEGER)?.emulator;
  assert.ok(after);
  assert.ok(after.history(0, 1).total > 1000, `the scrollback came along (${after.history(0, 1).total} rows)`);
  for (let i = 0; i < 10; i++) after.write(encoder.encode(manyStyles(200, 100 + i)));
  assert.equal(after.plainLines().filter((line) => line.includes('word')).length > 30, true, 'still parsing after 2000 more lines');
});
