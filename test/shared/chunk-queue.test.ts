import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChunkQueue } from '../../src/shared/chunk-queue.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

test('batches cut across chunk boundaries keep every byte in order', () => {
  const queue = new ChunkQueue();
  queue.push(bytes('abc'));
  queue.push(bytes(''));
  queue.push(bytes('defgh'));
  assert.equal(queue.bytes, 8);
  assert.equal(text(queue.take(4)), 'abcd');
  assert.equal(queue.bytes, 4);
  assert.equal(text(queue.take(100)), 'efgh');
  assert.equal(queue.bytes, 0);
  assert.equal(queue.take(10).length, 0);
});

test('a taken batch is a copy: transferring it leaves the queued rest intact', () => {
  const queue = new ChunkQueue();
  const chunk = bytes('0123456789');
  queue.push(chunk);
  const batch = queue.take(3);
  structuredClone(batch, { transfer: [batch.buffer as ArrayBuffer] });
  assert.equal(batch.byteLength, 0); // detached
  assert.equal(text(queue.take(7)), '3456789');
});

test('peekAll shows every queued byte in order without taking any', () => {
  const queue = new ChunkQueue();
  queue.push(bytes('abc'));
  queue.push(bytes('def'));
  assert.equal(text(queue.peekAll()), 'abcdef');
  assert.equal(queue.bytes, 6);
  assert.equal(queue.pushedTotal, 6);
  assert.equal(text(queue.take(4)), 'abcd');
  queue.push(bytes('gh'));
  assert.equal(text(queue.peekAll()), 'efgh');
  assert.equal(queue.pushedTotal, 8);
});

test('takeLines ends a batch after its last LF when that is in its second half, across chunks', () => {
  const queue = new ChunkQueue();
  queue.push(bytes('0123\n56'));
  queue.push(bytes('7\n9abcdef'));
  assert.equal(text(queue.takeLines(12)), '0123\n567\n');
  assert.equal(text(queue.peekAll()), '9abcdef');
  const early = new ChunkQueue();
  early.push(bytes('a\nbcdefghijklmnop'));
  assert.equal(text(early.takeLines(8)), 'a\nbcdefg', 'a LF in the first half does not shorten the batch');
  const all = new ChunkQueue();
  all.push(bytes('xy'));
  assert.equal(text(all.takeLines(8)), 'xy');
});

test('takeView hands out the front of a merged backlog without copying it, and copies when the front spans chunks', () => {
  const queue = new ChunkQueue();
  queue.push(bytes('abc'));
  queue.push(bytes('def'));
  const merged = queue.peekAll();
  const front = queue.takeView(4);
  assert.equal(text(front), 'abcd');
  assert.equal(front.buffer, merged.buffer, 'a view of the merged backlog');
  assert.equal(queue.bytes, 2);
  assert.equal(text(queue.take(2)), 'ef');

  queue.push(bytes('gh'));
  queue.push(bytes('ij'));
  const spanning = queue.takeView(3);
  assert.equal(text(spanning), 'ghi');
  assert.equal(queue.bytes, 1);
  assert.equal(text(queue.takeView(5)), 'j');
  assert.equal(queue.bytes, 0);
});

test('takeInto fills a buffer of the caller\'s from the front, across chunks, and linesSize says what takeLines would take', () => {
  const queue = new ChunkQueue();
  queue.push(bytes('one\ntw'));
  queue.push(bytes('o\nthree'));
  assert.equal(queue.linesSize(9), 8, 'up to the last LF in the second half');
  const target = new Uint8Array(queue.linesSize(9));
  queue.takeInto(target);
  assert.equal(text(target), 'one\ntwo\n');
  assert.equal(queue.bytes, 5);
  assert.throws(() => queue.takeInto(new Uint8Array(6)), /6 bytes asked for, 5 queued/);
  assert.equal(text(queue.takeLines(9)), 'three');
});

test('bytes come out in the order they went in while the buffer grows, moves its bytes to the front, and drains', () => {
  const queue = new ChunkQueue();
  let nextByte = 0;
  let expectedNext = 0;
  // A deterministic mix: bursts that grow the backlog past several buffer sizes, takes that drain it.
  let seed = 7;
  const random = (limit: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % limit;
  };
  const check = (taken: Uint8Array) => {
    for (const byte of taken) assert.equal(byte, expectedNext++ & 0xff);
  };
  for (let round = 0; round < 3000; round++) {
    const burst = round % 500 < 250 ? 3 : 1; // phases where the backlog grows, then shrinks
    for (let i = 0; i < burst; i++) {
      const chunk = new Uint8Array(1 + random(8192));
      for (let j = 0; j < chunk.length; j++) chunk[j] = nextByte++ & 0xff;
      queue.push(chunk);
    }
    const before = queue.bytes;
    const peeked = queue.peekAll();
    assert.equal(peeked.length, before);
    if (before > 0) assert.equal(peeked[0], expectedNext & 0xff, 'peekAll starts at the front');
    const how = random(3);
    if (how === 0) check(queue.take(random(12_000)));
    else if (how === 1) check(new Uint8Array(queue.takeView(random(12_000)))); // copied before the next push
    else {
      const target = new Uint8Array(queue.linesSize(random(12_000)));
      queue.takeInto(target);
      check(target);
    }
    if (round % 997 === 0) check(queue.take(queue.bytes)); // drained now and then
  }
  check(queue.take(queue.bytes));
  assert.equal(expectedNext, nextByte);
  assert.equal(queue.pushedTotal, nextByte);
});
