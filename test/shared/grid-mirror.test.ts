import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { GRID_MIRROR_HEADER_BYTES, GRID_MIRROR_PAYLOAD_BYTES, GRID_MIRROR_SEQUENCE_WORD, GridMirror } from '../../src/shared/grid-mirror.js';
import type { GridSnapshot } from '../../src/shared/pane-types.js';

function snapshot(lines: string[], overrides: Partial<GridSnapshot> = {}): GridSnapshot {
  return {
    lines,
    rows: 24,
    cols: 80,
    cursor: { x: 3, y: 1, visible: true, textIndex: 3 },
    activeScreen: 'primary',
    screenVersion: 7,
    idleMs: 12345,
    idle: true,
    title: 'tïtle ✓',
    bracketedPaste: true,
    mouseTracking: false,
    emulatorRebuilds: 0,
    ...overrides,
  };
}

/** A mirror as the worker sets it up: threshold, and the idle clock started at `startMs`. */
function started(startMs = 1_000_000, thresholdMs = 1000, buffer = GridMirror.allocate()): GridMirror {
  const mirror = new GridMirror(buffer);
  mirror.setIdleThreshold(thresholdMs);
  mirror.noteOutput(startMs);
  return mirror;
}

function publishNow(mirror: GridMirror, grid: GridSnapshot, streamHead = 0): boolean {
  return mirror.publish(grid, mirror.generation(), streamHead);
}

test('a snapshot with wide characters, emoji and combining marks round-trips, idle fields recomputed', () => {
  const mirror = started(1_000_000, 1000);
  const grid = snapshot(['世界 wide', 'e\u0301 combined, \u2764\ufe0f emoji, 👨‍👩‍👧‍👦 family', '', 'quote " backslash \\ tab\t']);
  assert.equal(publishNow(mirror, grid), true);
  const read = mirror.read(1_000_400);
  assert.deepEqual(read, { ...grid, idleMs: 400, idle: false });
  assert.deepEqual(Object.keys(read!), Object.keys(grid), 'same key order as PaneService.grid()');
});

test('nothing is served before the first publish', () => {
  assert.equal(new GridMirror(GridMirror.allocate()).read(Date.now()), null);
  assert.equal(started().read(Date.now()), null, 'the clock started, but no snapshot yet');
});

test('stale after markStale or output, current again after the next publish', () => {
  const mirror = started();
  publishNow(mirror, snapshot(['one']));
  assert.notEqual(mirror.read(1_000_000), null);
  mirror.markStale();
  assert.equal(mirror.read(1_000_000), null);
  publishNow(mirror, snapshot(['two']));
  assert.deepEqual(mirror.read(1_000_000)?.lines, ['two']);
  mirror.noteOutput(1_000_050);
  assert.equal(mirror.read(1_000_100), null);
});

test('the stream head is served with the snapshot it was published with, and never while stale', () => {
  const mirror = started();
  assert.equal(mirror.streamHead(), null, 'nothing published yet');
  publishNow(mirror, snapshot(['one']), 3_000_000_000); // past 2^31: a long session's output log
  assert.equal(mirror.streamHead(), 3_000_000_000);
  mirror.noteOutput(1_000_010);
  assert.equal(mirror.streamHead(), null, 'output since: the head has moved on');
  assert.equal(publishNow(mirror, snapshot(['x'.repeat(GRID_MIRROR_PAYLOAD_BYTES)]), 3_000_000_123), false);
  assert.equal(mirror.read(1_000_020), null, 'the snapshot did not fit');
  assert.equal(mirror.streamHead(), 3_000_000_123, 'the head is still current');
});

test('changedRows and the stored idle fields are never served', () => {
  const mirror = started();
  publishNow(mirror, snapshot(['a', 'b'], { changedRows: [1], idleMs: 5, idle: false }));
  const read = mirror.read(1_000_000)!;
  assert.equal('changedRows' in read, false);
  assert.equal(read.idleMs, 0);
});

test('idle is computed from the last output and the threshold, as the worker does', () => {
  const mirror = started(1_000_000, 500);
  publishNow(mirror, snapshot(['x']));
  assert.deepEqual(pick(mirror.read(1_000_499)), { idleMs: 499, idle: false });
  assert.deepEqual(pick(mirror.read(1_000_500)), { idleMs: 500, idle: true });
  assert.deepEqual(pick(mirror.read(999_000)), { idleMs: 0, idle: false }, 'a wall clock stepping back reads as just now');

  // No output yet: the clock runs from the start the worker noted.
  const fresh = started(2_000_000, 300);
  publishNow(fresh, snapshot(['x']));
  assert.deepEqual(pick(fresh.read(2_000_299)), { idleMs: 299, idle: false });

  // A threshold change applies at once, without a republish.
  mirror.setIdleThreshold(100.5);
  assert.deepEqual(pick(mirror.read(1_000_100)), { idleMs: 100, idle: false }, 'fractional threshold: 100 < 100.5');
  assert.deepEqual(pick(mirror.read(1_000_101)), { idleMs: 101, idle: true });
  mirror.setIdleThreshold(Number.POSITIVE_INFINITY);
  assert.equal(mirror.read(1e13)?.idle, false);
  mirror.setIdleThreshold(0);
  assert.equal(mirror.read(1_000_000)?.idle, true);
  mirror.setIdleThreshold(Number.NEGATIVE_INFINITY);
  assert.equal(mirror.read(1_000_000)?.idle, true);
});

function pick(grid: GridSnapshot | null): { idleMs: number; idle: boolean } | null {
  return grid && { idleMs: grid.idleMs, idle: grid.idle };
}

test('the largest screen full of wide emoji fits the default capacity', () => {
  const mirror = started();
  const lines = Array.from({ length: 200 }, () => '😀'.repeat(250));
  assert.equal(publishNow(mirror, snapshot(lines, { cols: 500, rows: 200 })), true);
  assert.deepEqual(mirror.read(1_000_000)?.lines, lines);
});

test('a snapshot that does not fit leaves nothing served until one that fits', () => {
  const mirror = started(1_000_000, 1000, GridMirror.allocate(512));
  assert.equal(publishNow(mirror, snapshot(['small'])), true);
  assert.equal(publishNow(mirror, snapshot(['x'.repeat(600)])), false);
  assert.equal(mirror.read(1_000_000), null, 'not the older snapshot either');
  assert.equal(publishNow(mirror, snapshot(['small again'])), true);
  assert.deepEqual(mirror.read(1_000_000)?.lines, ['small again']);
});

test('output noted while a snapshot was being built leaves the mirror stale', () => {
  const mirror = started();
  const generation = mirror.generation(); // the worker starts building its snapshot...
  mirror.noteOutput(1_000_010); // ...and output (or a rebuild) lands before it publishes
  assert.equal(mirror.publish(snapshot(['built before the output']), generation, 0), true);
  assert.equal(mirror.read(1_000_020), null);
  publishNow(mirror, snapshot(['after']));
  assert.deepEqual(mirror.read(1_000_020)?.lines, ['after']);
});

test('a reader never returns a write in progress or a torn copy', () => {
  const buffer = GridMirror.allocate();
  const mirror = started(1_000_000, 1000, buffer);
  publishNow(mirror, snapshot(['steady']));
  const header = new Int32Array(buffer);
  Atomics.add(header, GRID_MIRROR_SEQUENCE_WORD, 1); // a writer is mid-publish
  assert.equal(mirror.read(1_000_000), null, 'odd sequence: retried, then given up');
  Atomics.add(header, GRID_MIRROR_SEQUENCE_WORD, 1);
  assert.deepEqual(mirror.read(1_000_000)?.lines, ['steady']);

  // Bytes that changed without a sequence bump (what a reordered read could see) fail the checksum.
  const payload = new Uint8Array(buffer, GRID_MIRROR_HEADER_BYTES);
  const at = payload.indexOf('s'.charCodeAt(0));
  payload[at] = 'S'.charCodeAt(0);
  assert.equal(mirror.read(1_000_000), null);
  payload[at] = 's'.charCodeAt(0);
  assert.deepEqual(mirror.read(1_000_000)?.lines, ['steady']);
});

/** The writer for the concurrency test: publishes self-checking snapshots until told to stop. */
const WRITER = `
const { workerData } = require('node:worker_threads');
import(workerData.module).then(({ GridMirror }) => {
  const mirror = new GridMirror(workerData.buffer);
  const stop = new Int32Array(workerData.stop);
  for (let i = 0; Atomics.load(stop, 0) === 0; i++) {
    const line = String(i % 10).repeat(1 + (i % 300));
    mirror.publish({ lines: Array(24).fill(line), rows: 24, cols: 300, cursor: { x: 0, y: 0, visible: true },
      activeScreen: 'primary', screenVersion: i, idleMs: 0, idle: false, title: String(i),
      bracketedPaste: false, mouseTracking: false, emulatorRebuilds: 0 }, mirror.generation(), i * 1000);
  }
});
`;

test('reads racing a publishing thread are whole snapshots or null', async () => {
  const buffer = GridMirror.allocate();
  const mirror = started(1_000_000, 1000, buffer);
  const stop = new SharedArrayBuffer(4);
  const module = new URL('../../src/shared/grid-mirror.js', import.meta.url).href;
  const writer = new Worker(WRITER, { eval: true, workerData: { buffer, stop, module } });
  const versions = new Set<number>();
  let lastHead = 0;
  try {
    const until = Date.now() + 10_000;
    while (versions.size < 50 && Date.now() < until) {
      const head = mirror.streamHead();
      if (head !== null) {
        assert.equal(head % 1000, 0, `stream head ${head} is one the writer published`);
        assert.ok(head >= lastHead, `stream head went back from ${lastHead} to ${head}`);
        lastHead = head;
      }
      const read = mirror.read(1_000_000);
      if (!read) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const version = read.screenVersion;
      const line = String(version % 10).repeat(1 + (version % 300));
      assert.equal(read.title, String(version));
      assert.deepEqual(read.lines, Array(24).fill(line));
      versions.add(version);
    }
  } finally {
    Atomics.store(new Int32Array(stop), 0, 1);
    await new Promise((resolve) => writer.once('exit', resolve));
  }
  assert.ok(versions.size >= 50, `reads saw ${versions.size} distinct snapshots`);
});
