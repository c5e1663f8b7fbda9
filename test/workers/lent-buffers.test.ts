/** The PTY host's lent skim buffers: reused when they come back, sized for every later skim, and not kept once skims stop. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { LentBuffers } from '../../src/workers/lent-buffers.js';

test('a buffer that came back is lent again, as a view of exactly the size asked for', () => {
  const buffers = new LentBuffers();
  try {
    const first = buffers.take(100, 1024);
    assert.equal(first.length, 100);
    assert.equal(first.buffer.byteLength, 1024, 'room for any later skim up to the capacity');
    buffers.give(first.buffer as ArrayBuffer);
    const second = buffers.take(700, 1024);
    assert.equal(second.buffer, first.buffer);
    assert.equal(second.length, 700);
    assert.notEqual(buffers.take(10, 1024).buffer, first.buffer, 'a buffer is lent to one batch at a time');
  } finally {
    buffers.dispose();
  }
});

test('a buffer too small for the batch is not used, and a batch larger than the capacity still gets a buffer of its size', () => {
  const buffers = new LentBuffers();
  try {
    const small = new ArrayBuffer(64);
    buffers.give(small);
    const large = buffers.take(128, 64);
    assert.notEqual(large.buffer, small);
    assert.equal(large.length, 128);
  } finally {
    buffers.dispose();
  }
});

test('a returned buffer is let go once skims have stopped for a while', async () => {
  const buffers = new LentBuffers();
  try {
    const lent = buffers.take(10, 16);
    buffers.give(lent.buffer as ArrayBuffer);
    await sleep(1200);
    assert.notEqual(buffers.take(10, 16).buffer, lent.buffer);
  } finally {
    buffers.dispose();
  }
});
