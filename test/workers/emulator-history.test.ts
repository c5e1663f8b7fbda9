/** ghostty-emulator.ts's history: scrollback then screen, as frames the renderer draws. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { DEFAULT_COLOR } from '../../src/shared/pane-types.js';
import { frameLines } from '../../src/shared/frame-text.js';

const text = frameLines;

async function emulatorWith(lines: number): Promise<GhosttyEmulator> {
  const emulator = new GhosttyEmulator(await loadGhosttyModule(), { cols: 40, rows: 10, scrollbackBytes: 2000 });
  let out = '';
  for (let i = 1; i <= lines; i++) out += (i % 7 === 0 ? `\x1b[31mred ${i}\x1b[0m` : `line ${i}`) + (i === 5 ? ' 漢字 e\u0301' : '') + '\r\n';
  emulator.write(new TextEncoder().encode(out));
  return emulator;
}

test('rows from the oldest kept line, with colours, wide characters and graphemes', async () => {
  const emulator = await emulatorWith(300);
  const { frame, first, total } = emulator.history(0, 8);
  assert.equal(total, 301, '291 scrollback lines, then the 10-row screen (the last one empty)');
  assert.equal(first, 0);
  assert.deepEqual(text(frame), ['line 1', 'line 2', 'line 3', 'line 4', 'line 5 漢字 e\u0301', 'line 6', 'red 7', 'line 8']);
  assert.equal(frame.cells[6 * 40 * 4 + 1], 0xcd0000, 'red 7 keeps its colour');
  assert.equal(frame.cells[5 * 40 * 4 + 1], DEFAULT_COLOR, 'line 6 has the default colour');
  assert.equal(frame.cells[0 * 40 * 4 + 39 * 4 + 2], DEFAULT_COLOR, 'past the end of a line: default background');
  emulator.dispose();
});

test('a negative start counts from the end, and the end is the screen itself', async () => {
  const emulator = await emulatorWith(300);
  const bottom = emulator.history(-10, 10);
  assert.equal(bottom.first, 291);
  assert.deepEqual(text(bottom.frame), [...Array.from({ length: 9 }, (_, i) => (292 + i) % 7 === 0 ? `red ${292 + i}` : `line ${292 + i}`), '']);
  assert.deepEqual(text(bottom.frame), emulator.plainLines(), 'the last rows are the live screen');
  const across = emulator.history(-13, 5);
  assert.deepEqual(text(across.frame), ['line 289', 'line 290', 'line 291', 'line 292', 'line 293'], 'a slice across the scrollback and the screen');
  assert.equal(emulator.history(-1000, 5).first, 0, 'clamped to the oldest row');
  emulator.dispose();
});

test('the alternate screen has no history: only itself', async () => {
  const emulator = await emulatorWith(50);
  emulator.write(new TextEncoder().encode('\x1b[?1049h\x1b[Hin the alternate screen'));
  const slice = emulator.history(0, 10);
  assert.equal(slice.total, 10);
  assert.equal(slice.frame.activeScreen, 'alternate');
  assert.equal(text(slice.frame)[0], 'in the alternate screen');
  emulator.dispose();
});
