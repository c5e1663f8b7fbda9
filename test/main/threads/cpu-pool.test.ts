/** The pool must be a pure speed knob: the same answers inline and on a pool thread, and the caller's data intact. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeCpuPool, diffRowsOffThread, findRowOffThread, POOL_MIN_FIND_ROWS, streamLinesOffThread } from '../../../src/main/threads/cpu-pool.js';
import type { CellFrame } from '../../../src/shared/pane-types.js';
import { fileURLToPath } from 'node:url';
import { runWithImportForbidden } from '../../helpers/forbidden-import.js';
import { APP_ENTRY, bundleUrl } from '../../../src/main/bundles.js';

after(() => closeCpuPool());

const SAMPLE = '\x1b[31mERROR\x1b[0m disk full\r\nok line\n\x1b]0;title\x07plain error here\nlast';

test('stream lines are the same inline and on the pool', async () => {
  const bytes = new TextEncoder().encode(SAMPLE.repeat(50));
  const inline = await streamLinesOffThread(bytes.slice(), { force: 'inline' });
  const pooled = await streamLinesOffThread(bytes.slice(), { force: 'pool' });
  assert.deepEqual(pooled, inline);
  assert.equal(pooled.lines[0], 'ERROR disk full');
  assert.equal(pooled.totalLines, 151);
});

test('a view into a larger buffer is copied, not detached, when sent to the pool', async () => {
  const backing = new TextEncoder().encode(`xxxx${SAMPLE}yyyy`);
  const view = backing.subarray(4, backing.length - 4);
  const result = await streamLinesOffThread(view, { force: 'pool' });
  assert.equal(result.totalLines, 4);
  assert.equal(backing.byteLength, SAMPLE.length + 8, 'the caller still has its bytes');
});

test('row diffs report exactly the rows that differ', async () => {
  assert.deepEqual(await diffRowsOffThread({ before: ['a', 'b', 'c'], after: ['a', 'x', 'c', 'd'] }), [1, 3]);
});

/** A one-column-per-character frame of these lines (as a pane's history would come), padded to `cols`. */
function frameOf(lines: string[], cols: number): CellFrame {
  const cells = new Uint32Array(lines.length * cols * 4);
  lines.forEach((line, row) => [...line].forEach((ch, col) => cells.set([ch.codePointAt(0)!, 0, 0, 1 << 8], (row * cols + col) * 4)));
  for (let i = 0; i < lines.length * cols; i++) if (cells[i * 4] === 0) cells[i * 4 + 3] = 1 << 8;
  return { rows: lines.length, cols, cells, graphemes: {}, cursor: { x: 0, y: 0, visible: false }, activeScreen: 'primary', screenVersion: 0, bracketedPaste: false, mouseTracking: false, modes: { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false } };
}

test('a history search finds the nearest row either way, ignoring case, the same inline and on the pool', async () => {
  for (const rows of [50, POOL_MIN_FIND_ROWS * 3]) {
    const lines = Array.from({ length: rows }, (_, i) => (i === 10 || i === rows - 10 ? `Error at ${i}` : `line ${i}`));
    const find = (text: string, from: number, direction: -1 | 1) => findRowOffThread({ frame: frameOf(lines, 20), text, from, direction });
    assert.equal(await find('error', rows - 1, -1), rows - 10, `${rows} rows: back from the bottom`);
    assert.equal(await find('ERROR', rows - 10, -1), 10, `${rows} rows: the row searched from is not a match`);
    assert.equal(await find('error', 10, -1), -1, `${rows} rows: nothing further back`);
    assert.equal(await find('error', 10, 1), rows - 10, `${rows} rows: forward`);
  }
});

test("piscina is not part of patterm's main module graph, and the pool imports it when first used", () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const app of [new URL('../../../src/main/app.js', import.meta.url).href, bundleUrl(APP_ENTRY).href]) {
    const loaded = runWithImportForbidden('piscina', `await import(${JSON.stringify(app)});`, here);
    assert.equal(loaded.status, 0, `${app}: ${loaded.stderr}`);
  }
  const pool = new URL('../../../src/main/threads/cpu-pool.js', import.meta.url).href;
  const used = runWithImportForbidden('piscina', `const { diffRowsOffThread } = await import(${JSON.stringify(pool)}); await diffRowsOffThread({ before: [], after: Array(30000).fill('x') });`, here);
  assert.notEqual(used.status, 0);
  assert.match(used.stderr, /piscina imported by .*external-import\.js/);
});
