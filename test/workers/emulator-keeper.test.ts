/**
 * The keeper's compaction: past its limit a pane's emulator is swapped for a
 * fresh one showing the same screen, except while a full-screen program has
 * the alternate screen, whose compaction would lose the primary screen and its
 * scrollback; then it waits for the program to leave, up to a hard cap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { ByteRing } from '../../src/shared/byte-ring.js';
import { ALTERNATE_SCREEN_COMPACT_FACTOR, EmulatorKeeper } from '../../src/workers/emulator-keeper.js';
import { RowNumbering } from '../../src/shared/row-numbering.js';
import { compactEmulator } from '../../src/workers/emulator-compaction.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { frameLines } from '../../src/shared/frame-text.js';

const encoder = new TextEncoder();

/** A keeper whose limit sits just under a fresh emulator's memory, so any emulator counts as bloated but not past the alternate screen's cap. */
async function bloatedKeeper(limit?: (freshBytes: number) => number): Promise<EmulatorKeeper> {
  const module = await loadGhosttyModule();
  const probe = new EmulatorKeeper({ module, cols: 40, rows: 6, scrollbackBytes: 100_000, ring: new ByteRing(1 << 16), onRebuilt: () => undefined });
  const freshBytes = probe.current.wasmMemoryBytes();
  probe.current.dispose();
  return new EmulatorKeeper({
    module,
    cols: 40,
    rows: 6,
    scrollbackBytes: 100_000,
    ring: new ByteRing(1 << 16),
    onRebuilt: () => assert.fail('no trap expected'),
    compactBytes: limit ? limit(freshBytes) : freshBytes - 1,
  });
}

const write = (keeper: EmulatorKeeper, text: string) => keeper.write(encoder.encode(text), 0);
const screenText = (keeper: EmulatorKeeper) => keeper.current.plainLines().join('\n');

test('on the primary screen a bloated emulator is compacted, and shows the same lines', async () => {
  const keeper = await bloatedKeeper();
  write(keeper, 'shell prompt $ ls\r\nfile-a file-b\r\n');
  const before = keeper.current;
  assert.notEqual(keeper.compactIfBloated(), null);
  assert.notEqual(keeper.current, before, 'a fresh emulator');
  assert.match(screenText(keeper), /file-a file-b/);
  keeper.current.dispose();
});

test('history row numbers across a compaction: scrollback carried over keeps them, scrollback left behind counts as dropped', async () => {
  const keeper = await bloatedKeeper();
  let text = '';
  for (let i = 1; i <= 300; i++) text += `\x1b[38;2;${i % 256};90;${(i * 7) % 256}m${i % 3 === 0 ? '\x1b[1m' : ''}line ${i}\x1b[0m\r\n`;
  write(keeper, text);
  const numbering = new RowNumbering();
  const held = keeper.current.withScrollbackRows((rows) => Uint32Array.from({ length: rows.length }, (_, i) => rows.at(i)!));
  assert.ok(held.length > 250);
  numbering.sync(held);
  const before = frameLines(keeper.current.history(0, 10).frame);

  // Painted with its scrollback (no limit to fall under), the fresh emulator holds the same rows.
  const module = await loadGhosttyModule();
  const carried = compactEmulator(keeper.current, () => new GhosttyEmulator(module, { cols: 40, rows: 6, scrollbackBytes: 100_000 }), Number.POSITIVE_INFINITY)!.emulator;
  assert.equal(carried.withScrollbackRows((rows) => numbering.sync(rows)), 0, 'no row counts as dropped');
  assert.deepEqual(frameLines(carried.history(0, 10).frame), before);
  carried.dispose();

  // This keeper's limit leaves a fresh emulator no room for the scrollback: only the screen is kept.
  assert.equal(keeper.compactIfBloated(), 'none');
  assert.equal(keeper.current.withScrollbackRows((rows) => numbering.sync(rows)), held.length, 'every scrollback row counts as dropped');
  keeper.current.dispose();
});

test('on the alternate screen compaction waits until the program leaves it, and the primary screen survives', async () => {
  const keeper = await bloatedKeeper();
  write(keeper, 'shell prompt $ less notes\r\n');
  write(keeper, '\x1b[?1049h\x1b[Hpager page one');
  const before = keeper.current;
  assert.equal(keeper.compactIfBloated(), null, 'deferred while the pager runs');
  assert.equal(keeper.current, before);
  write(keeper, '\x1b[?1049l');
  assert.notEqual(keeper.compactIfBloated(), null, 'compacted once the pager left');
  assert.match(screenText(keeper), /shell prompt \$ less notes/, 'the primary screen came through');
  keeper.current.dispose();
});

test('on the alternate screen an emulator past the hard cap is compacted anyway', async () => {
  const keeper = await bloatedKeeper((freshBytes) => Math.floor(freshBytes / (ALTERNATE_SCREEN_COMPACT_FACTOR + 1)));
  write(keeper, '\x1b[?1049h\x1b[Hpager page one');
  assert.notEqual(keeper.compactIfBloated(), null);
  assert.match(screenText(keeper), /pager page one/, 'the alternate screen as it was');
  keeper.current.dispose();
});
