/**
 * The emulator's defaults as real programs in a real PTY see them: character
 * widths follow wcwidth (grapheme clustering off unless a program turns it
 * on), and palette colour 0 is the black patterm configures and reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UTF8_LOCALE } from '../helpers/locale.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASH_ENV, startBash, useCoordinator } from '../helpers/coordinator-fixture.js';
import { paletteColor } from '../../src/shared/query-replies.js';
import type { CellFrame } from '../../src/shared/pane-types.js';
import { scratchDir } from '../helpers/scratch-dir.js';

const coordinator = useCoordinator();
const TIMEOUT = 15_000;
const dir = scratchDir('patterm-widths-');
const emojiFile = join(dir, 'emoji.txt');
writeFileSync(emojiFile, '❤️x\n☺️y\n1️⃣z\n👍🏽w\n');

/** The column of the first cell in `row` that holds `char`. */
function columnOf(frame: CellFrame, row: number, char: string): number {
  for (let col = 0; col < frame.cols; col++) if (frame.cells[(row * frame.cols + col) * 4] === char.codePointAt(0)) return col;
  return -1;
}

test('vim shows emoji with VS16 or a skin tone at their wcwidth widths, none lost', async () => {
  const pane = await coordinator.spawn({ argv: ['vim', '-u', 'NONE', '-i', 'NONE', '-n', emojiFile], env: UTF8_LOCALE, kind: 'process' });
  await coordinator.waitFor(pane.id, { pattern: 'emoji\\.txt', timeoutMs: TIMEOUT });
  const grid = await coordinator.grid(pane.id);
  assert.deepEqual(grid.lines.slice(0, 2), ['❤️x', '☺️y']);
  assert.match(grid.lines[2], /^1\uFE0F?\u20E3z$/);
  assert.equal(grid.lines[3], '👍🏽w');
  const frame = await coordinator.cells(pane.id);
  // xterm and tmux: ❤️, ☺️ and 1️⃣ take one cell; 👍 and 🏽 two each.
  assert.deepEqual([columnOf(frame, 0, 'x'), columnOf(frame, 1, 'y'), columnOf(frame, 2, 'z'), columnOf(frame, 3, 'w')], [1, 1, 1, 4]);
  coordinator.write(pane.id, ':q\r', 'user');
  await coordinator.exitPromise(pane.id);
});

test("bash's cursor stays on the character it edits on an input line with emoji", async () => {
  const pane = await startBash(coordinator, TIMEOUT);
  coordinator.write(pane.id, 'echo ❤️❤️ab', 'user');
  await coordinator.waitFor(pane.id, { pattern: 'ab$', timeoutMs: TIMEOUT });
  coordinator.write(pane.id, '\x1b[D\x1b[D\x1b[DZ', 'user'); // three Left, then type Z before the second heart
  const typed = await coordinator.waitFor(pane.id, { pattern: '^\\$ echo ❤️Z❤️ab$', timeoutMs: TIMEOUT });
  assert.equal(typed.matched, true, typed.snippet);
  const grid = await coordinator.grid(pane.id);
  assert.deepEqual({ x: grid.cursor.x, textIndex: grid.cursor.textIndex }, { x: 9, textIndex: 10 }, 'on the second heart, after "$ echo ❤️Z"');
});

test('a program that turns grapheme clustering on gets it', async () => {
  const pane = await coordinator.spawn({ argv: ['bash', '--norc', '--noprofile', '-c', "printf '\\033[?2027h❤️x'; exec sleep 60"], env: BASH_ENV, kind: 'process' });
  await coordinator.waitFor(pane.id, { pattern: 'x$', timeoutMs: TIMEOUT });
  assert.equal(columnOf(await coordinator.cells(pane.id), 0, 'x'), 2, 'clustered, ❤️ is wide');
});

test('palette colour 0 is black, as the OSC 4 reply says, by SGR 30, 40 and 38;5;0', async () => {
  const pane = await coordinator.spawn({ argv: ['bash', '--norc', '--noprofile', '-c', "printf '\\033[30mA\\033[40mB\\033[0m\\033[38;5;0;48;5;0mC\\033[0m'; exec sleep 60"], kind: 'process' });
  await coordinator.waitFor(pane.id, { pattern: 'ABC', timeoutMs: TIMEOUT });
  const frame = await coordinator.cells(pane.id);
  const [r, g, b] = paletteColor(0);
  const black = (r << 16) | (g << 8) | b;
  assert.equal(black, 0x000000);
  assert.deepEqual([frame.cells[1], frame.cells[4 + 1], frame.cells[4 + 2], frame.cells[8 + 1], frame.cells[8 + 2]], [black, black, black, black, black]);
});
