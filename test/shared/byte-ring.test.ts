import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteRing } from '../../src/shared/byte-ring.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

test('reads everything since an offset while the ring holds it', () => {
  const ring = new ByteRing(16);
  ring.append(bytes('hello '));
  ring.append(bytes('world'));
  const read = ring.read(6);
  assert.equal(text(read.bytes), 'world');
  assert.deepEqual([read.startOffset, read.endOffset, read.droppedBytes], [6, 11, 0]);
});

test('reports dropped bytes once the ring wraps', () => {
  const ring = new ByteRing(8);
  ring.append(bytes('0123456789abcdef'));
  ring.append(bytes('XYZ'));
  const read = ring.read(0);
  assert.equal(text(read.bytes), 'bcdefXYZ');
  assert.equal(read.startOffset, 11);
  assert.equal(read.droppedBytes, 11);
  assert.equal(ring.headOffset, 19);
});

test('honours a limit and an offset past the head', () => {
  const ring = new ByteRing(8);
  ring.append(bytes('abcdef'));
  assert.equal(text(ring.read(1, 2).bytes), 'bc');
  const beyond = ring.read(100);
  assert.equal(beyond.bytes.length, 0);
  assert.equal(beyond.startOffset, 6);
});

test('rejects a nonsensical capacity with the value received', () => {
  assert.throws(() => new ByteRing(0), /positive integer, received 0/);
});

test('skipped output reads as dropped, never as stale bytes from the last lap', () => {
  const ring = new ByteRing(8);
  ring.append(new TextEncoder().encode('abcdefgh'));
  ring.skip(100);
  ring.append(new TextEncoder().encode('xyz'));
  const read = ring.read(0);
  assert.equal(new TextDecoder().decode(read.bytes), 'xyz');
  assert.equal(read.startOffset, 108);
  assert.equal(read.droppedBytes, 108);
  assert.equal(ring.headOffset, 111);
  ring.append(new TextEncoder().encode('0123456789'));
  assert.equal(new TextDecoder().decode(ring.read(0).bytes), '23456789', 'once the ring has lapped again it holds its full capacity');
});
