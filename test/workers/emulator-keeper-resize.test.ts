/**
 * EmulatorKeeper.resize: ghostty-web 0.4.0's reflow of rows mixing combining
 * marks and toned emoji can spin inside WASM for minutes, which froze the pane
 * (no output parsed, no acks, no answers). A reflow that runs past its budget
 * is stopped and the ring replayed at the new size; everything else reflows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { ByteRing } from '../../src/shared/byte-ring.js';
import { EmulatorKeeper } from '../../src/workers/emulator-keeper.js';
import { DEFAULT_SCROLLBACK_BYTES } from '../../src/shared/pane-protocol.js';
import { useCoordinator } from '../helpers/coordinator-fixture.js';

/**
 * 2000 lines of pseudo-random base64 with toned emoji and combining accents
 * (~190 KB): from 120x40 ghostty-web's reflow to 20x5 did not return within
 * 15 s, every time (the same generator, so the same bytes).
 */
const GRAPHEME_LINES = 2000;
/** The reviewer's sequence of resizes while the flood ran. */
const SIZES: [number, number][] = [[20, 5], [150, 50], [7, 3], [61, 10], [59, 40], [1, 1], [200, 60], [33, 4], [100, 30]];
/** A frozen worker never answers; a recovered one replays ~190 KB per resize, well under this. */
const RECOVERY_TIMEOUT_MS = 20_000;

/**
 * JS that prints `lines` deterministic base64 lines with b -> toned thumbs up and c -> e + combining acute,
 * after turning grapheme clustering (mode 2027) on: the runaway reflow needs clustered graphemes.
 */
const graphemeFloodSource = (lines: number) =>
  `const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'; let seed = 1;` +
  `const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16; let out = '\\x1b[?2027h';` +
  `for (let l = 0; l < ${lines}; l++) { let line = ''; for (let i = 0; i < 76; i++) line += A[rnd() & 63];` +
  `out += line.replace(/b/g, '\\u{1F44D}\\u{1F3FD}').replace(/c/g, 'e\\u0301') + '\\r\\n'; }`;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (pane frozen)`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

test('a pane full of graphemes survives a burst of resizes and keeps answering', async () => {
  const coordinator = useCoordinator();
  // Prints the graphemes, then DONE once the test types a key: proof that input and output both still flow.
  const script = `${graphemeFloodSource(GRAPHEME_LINES)} process.stdout.write(out + 'READY\\r\\n'); process.stdin.setRawMode(true);` +
    `process.stdin.on('data', () => process.stdout.write('DONE\\r\\n'));`;
  const pane = await coordinator.spawn({ argv: [process.execPath, '-e', script], kind: 'process' });
  const ready = await coordinator.waitFor(pane.id, { pattern: '^READY$', timeoutMs: 15_000 });
  assert.equal(ready.matched, true, 'the flood was parsed');
  for (const [cols, rows] of SIZES) coordinator.setPaneSize(cols, rows);
  coordinator.write(pane.id, 'x', 'user');
  const done = await withTimeout(coordinator.waitFor(pane.id, { pattern: '^DONE$', timeoutMs: RECOVERY_TIMEOUT_MS }), RECOVERY_TIMEOUT_MS + 1000, 'waiting for DONE');
  assert.equal(done.matched, true, 'output after the resizes reached the screen');
  const grid = await withTimeout(coordinator.grid(pane.id), 5000, 'reading the grid');
  assert.deepEqual([grid.cols, grid.rows], [100, 30], 'at the last size');
});

async function keeperAt(cols: number, rows: number, scrollbackBytes = 1 << 20) {
  const ring = new ByteRing(1 << 20);
  const rebuilt: string[] = [];
  const keeper = new EmulatorKeeper({ module: await loadGhosttyModule(), cols, rows, scrollbackBytes, ring, onRebuilt: (reason) => rebuilt.push(reason) });
  const write = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    const start = ring.headOffset;
    ring.append(bytes);
    keeper.write(bytes, start);
  };
  return { keeper, write, rebuilt };
}

test('a resize that reflows in time keeps the emulator and its scrollback', async () => {
  const { keeper, write, rebuilt } = await keeperAt(40, 5);
  for (let i = 0; i < 50; i++) write(`line ${i}\r\n`);
  const before = keeper.current;
  keeper.resize(20, 4);
  assert.equal(keeper.current, before, 'the same emulator');
  assert.deepEqual([keeper.current.cols, keeper.current.rows], [20, 4]);
  assert.match(keeper.current.plainLines().join('\n'), /line 49/);
  assert.deepEqual(rebuilt, []);
  keeper.current.dispose();
});

test('a reflow that runs away is stopped, and the output is replayed at the new size', async () => {
  // A pane's own scrollback: with 1 MiB of it the same reflow finished in 16 ms, with 4 MiB it ran past 5 s.
  const { keeper, write, rebuilt } = await keeperAt(120, 40, DEFAULT_SCROLLBACK_BYTES);
  const flood = new Function(`${graphemeFloodSource(GRAPHEME_LINES)} return out;`)() as string;
  write(flood);
  write('the last line\r\n');
  const before = keeper.current;
  const started = performance.now();
  keeper.resize(20, 5, { budgetMs: 300 });
  assert.ok(performance.now() - started < 10_000, 'stopped, not left to spin');
  assert.notEqual(keeper.current, before, 'a fresh emulator');
  assert.deepEqual([keeper.current.cols, keeper.current.rows], [20, 5]);
  assert.deepEqual(rebuilt, ['resizing to 20x5 took longer than 300 ms']);
  assert.match(keeper.current.plainLines().join('\n'), /the last line/);
  keeper.current.dispose();
});
