/** The pool must be a pure speed knob: the same answers inline and on a pool thread, and the caller's data intact. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeCpuPool, diffRowsOffThread, streamLinesOffThread } from '../../src/main/cpu-pool.js';

after(() => closeCpuPool());

const SAMPLE = '\x1b[31mERROR\x1b[0m disk full\r\nok line\n\x1b]0;title\x07plain error here\nlast';

test('stream lines are the same inline and on the pool, with and without a filter', async () => {
  const bytes = new TextEncoder().encode(SAMPLE.repeat(50));
  for (const pattern of [null, 'error']) {
    const inline = await streamLinesOffThread({ bytes: bytes.slice(), pattern, flags: 'i' }, { force: 'inline' });
    const pooled = await streamLinesOffThread({ bytes: bytes.slice(), pattern, flags: 'i' }, { force: 'pool' });
    assert.deepEqual(pooled, inline);
  }
  const filtered = await streamLinesOffThread({ bytes: bytes.slice(), pattern: 'error', flags: 'i' }, { force: 'pool' });
  assert.equal(filtered.lines[0], 'ERROR disk full');
  assert.equal(filtered.lines.length, 100);
});

test('a view into a larger buffer is copied, not detached, when sent to the pool', async () => {
  const backing = new TextEncoder().encode(`xxxx${SAMPLE}yyyy`);
  const view = backing.subarray(4, backing.length - 4);
  const result = await streamLinesOffThread({ bytes: view, pattern: null, flags: '' }, { force: 'pool' });
  assert.equal(result.totalLines, 4);
  assert.equal(backing.byteLength, SAMPLE.length + 8, 'the caller still has its bytes');
});

test('row diffs report exactly the rows that differ', async () => {
  assert.deepEqual(await diffRowsOffThread({ before: ['a', 'b', 'c'], after: ['a', 'x', 'c', 'd'] }), [1, 3]);
});
