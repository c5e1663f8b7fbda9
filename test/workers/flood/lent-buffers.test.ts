/** The PTY host's lent skim buffers: reused when they come back, room for the skims after, and not kept once skims stop. */
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { LentBuffers } from '../../../src/workers/flood/lent-buffers.js';

test('a buffer that came back is lent again, as a view of exactly the size asked for', () => {
  const buffers = new LentBuffers();
  try {
    const first = buffers.take(700_000);
    assert.equal(first.length, 700_000);
    assert.equal(first.buffer.byteLength, 1 << 20, 'sized to the next power of two, room for a larger skim after it');
    buffers.give(first.buffer as ArrayBuffer);
    const second = buffers.take(1_000_000);
    assert.equal(second.buffer, first.buffer);
    assert.equal(second.length, 1_000_000);
    assert.notEqual(buffers.take(10).buffer, first.buffer, 'a buffer is lent to one batch at a time');
  } finally {
    buffers.dispose();
  }
});

test('a returned buffer too small for the next batch is passed over for a new one', () => {
  const buffers = new LentBuffers();
  try {
    const small = new ArrayBuffer(64);
    buffers.give(small);
    const large = buffers.take(100);
    assert.notEqual(large.buffer, small);
    assert.equal(large.length, 100);
    assert.equal(large.buffer.byteLength, 128);
  } finally {
    buffers.dispose();
  }
});

test('a returned buffer is let go once skims have stopped for a while', () => {
  // The clock is the test's: "a while" passes when the test says so, however loaded the machine.
  mock.timers.enable({ apis: ['setTimeout'] });
  const buffers = new LentBuffers();
  try {
    const lent = buffers.take(10);
    buffers.give(lent.buffer as ArrayBuffer);
    mock.timers.tick(999);
    const kept = buffers.take(10);
    assert.equal(kept.buffer, lent.buffer, 'kept until a whole second without skims');
    buffers.give(kept.buffer as ArrayBuffer);
    mock.timers.tick(1000);
    assert.notEqual(buffers.take(10).buffer, lent.buffer);
  } finally {
    buffers.dispose();
    mock.timers.reset();
  }
});
