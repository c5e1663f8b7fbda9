/**
 * The emulator's shortcuts for reading the screen, each held against doing the
 * whole work, after every one of a few thousand random screen operations:
 *  - the screen hash rehashes only the rows ghostty reports dirty: a row
 *    ghostty changed without reporting it would make the two differ, and a
 *    pane would then miss a screen change (no frame, no waiter wake-up);
 *  - plainLines() rebuilds only rows whose cells changed: a row wrongly reused
 *    would show a waiter or read_output stale text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
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

/** Graphemes whose first codepoint is the same ('👍' with skin tones, 'e' with accents) change a row without changing its first codepoints. */
const WORDS = ['build', 'ok', '漢字', 'é', '👍', '👍🏽', '👍🏿', 'e', 'e\u0301', 'e\u0300', 'error: x', '\t', '│', '─'];

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

/** Runs `steps` random operations (and a resize every 500), calling `check` after each with what was written. */
async function randomScreens(steps: number, check: (emulator: GhosttyEmulator, bytes: string, step: number) => void): Promise<void> {
  const module = await loadGhosttyModule();
  const emulator = new GhosttyEmulator(module, { cols: 60, rows: 20, scrollbackBytes: 2000 });
  const next = random(20261123);
  const encoder = new TextEncoder();
  let cols = 60;
  let rows = 20;
  for (let step = 0; step < steps; step++) {
    if (step % 500 === 499) {
      cols = 40 + Math.floor(next() * 60);
      rows = 10 + Math.floor(next() * 20);
      emulator.resize(cols, rows);
    }
    const bytes = Array.from({ length: 1 + Math.floor(next() * 3) }, () => operation(next, cols, rows)).join('');
    emulator.write(encoder.encode(bytes));
    check(emulator, bytes, step);
  }
  emulator.dispose();
}

test('hashing only the dirty rows agrees with hashing every row, through random screen operations and resizes', async () => {
  let changes = 0;
  let previous = -1;
  await randomScreens(3000, (emulator, bytes, step) => {
    emulator.syncDirty();
    const incremental = emulator.screenHash();
    const full = emulator.screenHash(true);
    assert.equal(incremental, full, `step ${step}: after ${JSON.stringify(bytes)}`);
    if (full !== previous) changes++;
    previous = full;
  });
  assert.ok(changes > 2000, `the operations changed the screen (${changes} of 3000 steps)`);
});

test('reusing unchanged rows gives the same lines as building every row, through random screen operations and resizes', async () => {
  let reusedSteps = 0;
  let previous: string[] = [];
  await randomScreens(3000, (emulator, bytes, step) => {
    if (step % 3 === 0) emulator.screenHash(); // a tick's order: hash first, from the same snapshot
    const incremental = emulator.plainLines();
    const full = emulator.plainLines(true);
    assert.deepEqual(incremental, full, `step ${step}: after ${JSON.stringify(bytes)}`);
    if (incremental.some((line, row) => line !== '' && line === previous[row])) reusedSteps++;
    previous = incremental;
  });
  assert.ok(reusedSteps > 1000, `rows stayed the same between steps, so reuse was exercised (${reusedSteps} of 3000 steps)`);
});

test('a row is rebuilt when only a grapheme changes behind the same first codepoint', async () => {
  const module = await loadGhosttyModule();
  const emulator = new GhosttyEmulator(module, { cols: 20, rows: 4, scrollbackBytes: 2000 });
  const encoder = new TextEncoder();
  for (const [before, after] of [['👍🏽', '👍🏿'], ['e\u0301', 'e\u0300']]) {
    emulator.write(encoder.encode(`\x1b[H\x1b[2J${before} ok`));
    assert.equal(emulator.plainLines()[0], `${before} ok`);
    emulator.write(encoder.encode(`\x1b[H${after}`));
    assert.equal(emulator.plainLines()[0], `${after} ok`, `${JSON.stringify(before)} overwritten by ${JSON.stringify(after)}`);
  }
  emulator.dispose();
});
