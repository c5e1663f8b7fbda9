/**
 * The cursor through a resize that reflows the primary screen: ghostty-web
 * 0.4.0 carries a cursor that sits on a blank (past the end of a shell's
 * prompt or typed input) to a wrong column, and a row too high or low;
 * GhosttyEmulator.resize puts it where the reflowed text puts it. The
 * alternate screen, origin mode and a parser in the middle of a sequence are
 * left to ghostty as they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { PaneService } from '../../src/workers/pane-service.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import { DEFAULT_COLOR } from '../../src/shared/pane-types.js';

const encoder = new TextEncoder();
/** A command line 85 characters long: three rows at 30 or 40 columns, the last with 25 or 5. */
const COMMAND_LINE = '$ echo the quick brown fox jumps over the lazy dog and keeps on running past the edge';
/** Output 50 characters long: it wraps at 40 columns and below. */
const OUTPUT = 'a'.repeat(50);

async function emulator(cols: number, rows: number, text = ''): Promise<GhosttyEmulator> {
  const created = new GhosttyEmulator(await loadGhosttyModule(), { cols, rows, scrollbackBytes: 1 << 20 });
  created.write(encoder.encode(text));
  return created;
}

const cursorAt = (screen: GhosttyEmulator) => {
  const { x, y } = screen.cursor();
  return [x, y];
};

/** The cursor is right after the last character of its row's text, which ends with `ending`. */
function assertRightAfter(screen: GhosttyEmulator, ending: string, when: string): void {
  const { x, y } = screen.cursor();
  const row = screen.plainLines(true)[y];
  assert.ok(row.endsWith(ending), `${when}: the cursor's row ${JSON.stringify(row)} ends with ${JSON.stringify(ending)}`);
  assert.equal(x, row.length, `${when}: the cursor is right after ${JSON.stringify(row)}`);
}

test('narrowed then widened back, the cursor ends the wrapped command line, not a row up on the output', async () => {
  const screen = await emulator(40, 10, `${OUTPUT}\r\n${COMMAND_LINE}`);
  assert.deepEqual(cursorAt(screen), [5, 4]);
  screen.resize(30, 10);
  assert.deepEqual(cursorAt(screen), [25, 4], 'at 30 columns: 30 + 30 + 25');
  screen.resize(40, 10);
  assert.deepEqual(cursorAt(screen), [5, 4], 'back at 40 columns: 40 + 40 + 5');
  screen.write(encoder.encode('X'));
  assert.deepEqual(screen.plainLines().slice(0, 5), [OUTPUT.slice(0, 40), OUTPUT.slice(40), COMMAND_LINE.slice(0, 40), COMMAND_LINE.slice(40, 80), ' edgeX'], 'what is typed next goes on the line');
  screen.dispose();
});

test('a narrowing that adds rows puts the cursor on the last of them', async () => {
  const screen = await emulator(40, 10, `${OUTPUT}\r\n${COMMAND_LINE}`);
  screen.resize(20, 10);
  assert.deepEqual(cursorAt(screen), [5, 7], 'output on rows 0-2, the command line on 3-7');
  assertRightAfter(screen, 'edge', 'at 20 columns');
  screen.dispose();
});

test('with the prompt on the last row, the cursor stays right after the text as rows go to and come from the scrollback', async () => {
  const lines = Array.from({ length: 8 }, (_, i) => `line ${i}\r\n`).join('');
  const screen = await emulator(40, 6, `${lines}${OUTPUT}\r\n${COMMAND_LINE}`);
  assert.deepEqual(cursorAt(screen), [5, 5]);
  for (const cols of [30, 20, 60, 33, 40]) {
    screen.resize(cols, 6);
    assert.equal(screen.cursor().y, 5, `at ${cols} columns the command line still ends on the last row`);
    assertRightAfter(screen, 'edge', `at ${cols} columns`);
  }
  screen.dispose();
});

test('several resizes in a row, one where the text ends at the right edge, leave the cursor right after the text', async () => {
  const screen = await emulator(40, 10, `${OUTPUT}\r\n${COMMAND_LINE}`);
  screen.resize(17, 10); // 85 = 5 x 17: the text fills its last row
  assert.deepEqual(cursorAt(screen), [16, 7], 'in the last column of the last row, where a pending wrap would be');
  for (const cols of [43, 30, 86, 29, 40]) {
    screen.resize(cols, 10);
    assertRightAfter(screen, 'edge', `at ${cols} columns, after 17`);
  }
  assert.deepEqual(cursorAt(screen), [5, 4]);
  screen.dispose();
});

test('after wide characters, the cursor follows the last one to the next row when it no longer fits', async () => {
  const wide = Array.from({ length: 25 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(''); // 50 cells
  const screen = await emulator(40, 6, `x\r\n${wide}`);
  const expected: [number, [number, number]][] = [[30, [20, 2]], [25, [2, 3]], [41, [10, 2]], [23, [6, 3]], [40, [10, 2]]];
  for (const [cols, place] of expected) {
    screen.resize(cols, 6);
    assert.deepEqual(cursorAt(screen), place, `at ${cols} columns`);
  }
  screen.dispose();
});

test('a cursor on blanks inside a line keeps its distance from the text before it', async () => {
  // "abc", blanks, "RIGHT" at column 20 (a right-hand prompt), and the cursor back at column 14.
  const screen = await emulator(40, 10, `${OUTPUT}\r\nabc\x1b[21GRIGHT\x1b[15G`);
  screen.resize(12, 10);
  assert.deepEqual(cursorAt(screen), [2, 6], 'output on rows 0-4, the line on 5-7: 14 = 12 + 2');
  screen.resize(40, 10);
  assert.deepEqual(cursorAt(screen), [14, 2]);
  screen.dispose();
});

test('on an empty row, the cursor keeps its column, and is held at the right edge when it is narrower', async () => {
  const screen = await emulator(40, 8, `${OUTPUT}\r\n\x1b[12C`);
  screen.resize(30, 8);
  assert.deepEqual(cursorAt(screen), [12, 2]);
  screen.resize(10, 8);
  assert.deepEqual(cursorAt(screen), [9, 5], 'the output takes rows 0-4');
  screen.resize(40, 8);
  assert.deepEqual(cursorAt(screen), [12, 2], 'its column back once there is room');
  screen.dispose();
});

/** Bytes that leave the cursor past the end of some text, after a wrapped line; for each, ghostty's own resize and ours must agree. */
const LEFT_TO_GHOSTTY: [string, string][] = [
  ['the alternate screen', `\x1b[?1049h${OUTPUT}\r\n${COMMAND_LINE}`],
  ['origin mode in a scroll region', `${OUTPUT}\r\n\x1b[2;9r\x1b[?6h\x1b[3;1H${COMMAND_LINE}`],
];

for (const [what, bytes] of LEFT_TO_GHOSTTY) {
  test(`${what}: a resize does as ghostty-web does`, async () => {
    const ours = await emulator(40, 10, bytes);
    const its = await emulator(40, 10, bytes);
    for (const [cols, rows] of [[30, 10], [40, 10], [60, 8], [23, 12]]) {
      ours.resize(cols, rows);
      its.resize(cols, rows, false);
      assert.deepEqual([cursorAt(ours), ours.plainLines(true)], [cursorAt(its), its.plainLines(true)], `at ${cols}x${rows}`);
    }
    ours.dispose();
    its.dispose();
  });
}

test('a pane resized while its output stops inside a sequence or a character parses the rest as it would have', async () => {
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 64 * 1024, scrollbackBytes: 1 << 20, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  const output = (bytes: string | number[]) => service.onOutput(typeof bytes === 'string' ? encoder.encode(bytes) : Uint8Array.from(bytes));
  output('prompt\x1b[3'); // the cursor past "prompt", the parser inside a CSI
  service.resize(30, 8);
  output('1mred\x1b[m ');
  output([0xc3]); // the first byte of "é"
  service.resize(40, 8);
  output([0xa9]);
  assert.equal(service.grid().lines[0], 'promptred é');
  const { cells } = service.cells();
  assert.notEqual(cells[6 * 4 + 1], DEFAULT_COLOR, '"red" in the colour its SGR chose');
});

/**
 * Seeded screens: lines of distinct characters, the last one the cursor's,
 * the cursor past its text by 0 to 4 blanks (or waiting to wrap after
 * it); widths at random. After each
 * resize the cursor must be as far past the last character before it as it
 * was (found by its distinct character), or at the end of the line's last
 * row when the line ends before that.
 */
test('on seeded screens, the cursor stays as far past the text before it as it was', async () => {
  const module = await loadGhosttyModule();
  const letters = [0x100, 0x180, 0x410, 0x450, 0x1e00, 0x1f00].reduce<string[]>((all, from, i, bounds) => (i % 2 ? all : all.concat(Array.from({ length: bounds[i + 1] - from }, (_, k) => String.fromCodePoint(from + k)))), []);
  let seed = 7;
  const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const wrong: string[] = [];
  for (let run = 0; run < 300; run++) {
    const cols = 10 + random(40);
    const rows = 6 + random(8);
    const screen = new GhosttyEmulator(module, { cols, rows, scrollbackBytes: 1 << 20 });
    let next = 0;
    const line = (length: number) => Array.from({ length }, () => letters[next++ % letters.length]).join('');
    const lines = Array.from({ length: 1 + random(3) }, () => line(random(cols * 2))); // no more characters than there are distinct ones
    const last = line(1 + random(cols * 2));
    const blanks = random(5);
    screen.write(encoder.encode(`${lines.join('\r\n')}\r\n${last}${blanks ? `\x1b[${blanks}C` : ''}`));
    const before = screen.cursor();
    // Where the cursor is in the line: a cursor forward stops at the right edge, and does not leave a character printed there.
    const col = last.length % cols;
    const offset = blanks === 0 ? last.length : col === 0 ? last.length - 1 : last.length - col + Math.min(col + blanks, cols - 1);
    for (let step = 0; step < 3; step++) {
      const width = 5 + random(55);
      screen.resize(width, rows);
      const shown = screen.plainLines(true).map((row) => [...row]);
      const y = shown.findIndex((row) => row.includes(last.at(-1)!));
      if (y < 0 || shown.findIndex((row) => row.includes(last[0])) < 0) break; // the line's start went to the scrollback
      const anchor = { x: shown[y].indexOf(last.at(-1)!), y };
      const at = anchor.x + offset - (last.length - 1);
      const lineEnd = anchor.y; // the anchor is the line's last character: its row is the line's last
      const expected = anchor.y + Math.floor(at / width) > lineEnd ? [width - 1, lineEnd] : [at % width, anchor.y];
      const actual = cursorAt(screen);
      if (actual[0] !== expected[0] || actual[1] !== expected[1]) {
        wrong.push(`run ${run}: ${cols}x${rows} cursor ${before.x},${before.y} (${blanks} blanks past the text) to ${width} columns: expected ${expected}, got ${actual}`);
        break;
      }
    }
    screen.dispose();
  }
  assert.deepEqual(wrong, []);
});
