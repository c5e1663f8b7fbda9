/**
 * The screen hash rehashes only the rows ghostty reports dirty. Held against
 * hashing every row, after each of a few thousand random screen operations:
 * a row ghostty changed without reporting it would make the two differ, and
 * a pane would then miss a screen change (no frame, no waiter wake-up).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';

/** Deterministic, so a failure replays (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['build', 'ok', '漢字', 'é', '👍', 'error: x', '\t', '│', '─'];

function operation(next: () => number, cols: number, rows: number): string {
  const pick = <T,>(items: T[]) => items[Math.floor(next() * items.length)];
  const n = (max: number) => 1 + Math.floor(next() * max);
  return pick([
    () => `\x1b[${n(rows)};${n(cols)}H${pick(WORDS)}`,
    () => `${pick(WORDS)} ${pick(WORDS)}\r\n`, // scrolls at the bottom
    () => `\x1b[${n(rows)};${n(cols)}H\x1b[${pick([0, 1, 2])}K`,
    () => `\x1b[${pick([0, 1, 2])}J`,
    () => `\x1b[${n(rows / 2)};${rows - n(rows / 2) + 1}r\x1b[${n(rows)};1H\x1b[${n(3)}${pick(['L', 'M', 'S', 'T'])}\x1b[r`,
    () => `\x1b[${n(rows)};${n(cols)}H\x1b[${n(4)}${pick(['@', 'P', 'X'])}`,
    () => `\x1b[3${n(7)}m${pick(WORDS)}\x1b[0m`,
    () => '\x1b[H\x1bM', // reverse index at the top: scrolls down
    () => pick(['\x1b[?1049h', '\x1b[?1049l']),
    () => `\x1b[${n(rows)};1H\x1b#8`.slice(0, next() < 0.02 ? undefined : 0), // DECALN now and then
    () => '\x1b[?25l\x1b[?25h',
  ])();
}

test('hashing only the dirty rows agrees with hashing every row, through random screen operations and resizes', async () => {
  const module = await loadGhosttyModule();
  const emulator = new GhosttyEmulator(module, { cols: 60, rows: 20, scrollbackBytes: 2000 });
  const next = random(20261123);
  const encoder = new TextEncoder();
  let cols = 60;
  let rows = 20;
  let changes = 0;
  let previous = emulator.screenHash();
  for (let step = 0; step < 3000; step++) {
    if (step % 500 === 499) {
      cols = 40 + Math.floor(next() * 60);
      rows = 10 + Math.floor(next() * 20);
      emulator.resize(cols, rows);
    }
    const bytes = Array.from({ length: 1 + Math.floor(next() * 3) }, () => operation(next, cols, rows)).join('');
    emulator.write(encoder.encode(bytes));
    emulator.syncDirty();
    const incremental = emulator.screenHash();
    const full = emulator.screenHash(true);
    assert.equal(incremental, full, `step ${step}: after ${JSON.stringify(bytes)}`);
    if (full !== previous) changes++;
    previous = full;
  }
  assert.ok(changes > 2000, `the operations changed the screen (${changes} of 3000 steps)`);
  emulator.dispose();
});
