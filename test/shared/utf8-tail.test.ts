import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeUtf8Length } from '../../src/shared/utf8-tail.js';

const bytes = (text: string) => new TextEncoder().encode(text);

test('whole characters are kept whole, of every length', () => {
  for (const text of ['', 'a', 'é', '中', '😀', 'ab中😀']) assert.equal(completeUtf8Length(bytes(text)), bytes(text).length, text);
});

test('a character cut after any of its bytes is left for the next read', () => {
  for (const char of ['é', '中', '😀']) {
    const whole = bytes(`x${char}`);
    for (let cut = 2; cut < whole.length; cut++) assert.equal(completeUtf8Length(whole.subarray(0, cut)), 1, `${char} cut to ${cut} bytes`);
  }
});

test('stray continuation bytes are not waited for', () => {
  // Five continuation bytes: no lead within reach, so nothing is held back.
  assert.equal(completeUtf8Length(Uint8Array.of(0x41, 0x80, 0x80, 0x80, 0x80, 0x80)), 6);
});
