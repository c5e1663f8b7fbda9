/**
 * The scanner's fast paths (indexOf skipping, the CSI parameter loop, the ESC [
 * shortcut) all have chunk-boundary cases. Property: however a byte stream is
 * split, the events and their absolute positions are the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SequenceScanner } from '../../src/shared/sequence-scanner.js';

/** Bytes that start, continue or end sequences, plus text; dense enough to hit every state. */
const ALPHABET = [0x1b, 0x07, 0x5b, 0x5d, 0x50, 0x5c, 0x18, 0x1a, 0x3b, 0x3f, 0x3e, 0x24, 0x20, 0x30, 0x31, 0x32, 0x36, 0x63, 0x71, 0x70, 0x75, 0x6e, 0x74, 0x6d, 0x41, 0x2b, 0x01, 0x7f, 0xc3, 0xa9];

function randomBytes(seed: number, length: number): Uint8Array {
  let state = seed;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    out[i] = ALPHABET[state % ALPHABET.length];
  }
  return out;
}

function scanSplit(bytes: Uint8Array, size: number): string[] {
  const scanner = new SequenceScanner();
  const events: string[] = [];
  for (let start = 0; start < bytes.length; start += size) {
    for (const event of scanner.scan(bytes.subarray(start, start + size))) events.push(JSON.stringify({ ...event, end: start + event.end }));
  }
  return events;
}

test('events and their positions do not depend on how the stream is split', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const bytes = randomBytes(seed, 4000);
    const whole = scanSplit(bytes, bytes.length);
    assert.ok(whole.length > 0, 'the random stream contains sequences');
    for (const size of [1, 2, 3, 5, 64, 1000]) assert.deepEqual(scanSplit(bytes, size), whole, `seed ${seed}, split ${size}`);
  }
});
