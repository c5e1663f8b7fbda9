/**
 * A compacted emulator must show exactly what the old one showed: same cells
 * (text, colours, attributes, widths), graphemes, cursor, active screen and modes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';

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
