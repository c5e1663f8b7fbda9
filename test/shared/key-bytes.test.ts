import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bracketedPaste, keyToBytes } from '../../src/shared/key-bytes.js';
import { stripAnsi } from '../../src/shared/ansi-strip.js';

test('named keys map to terminal bytes, arrows honour application cursor mode', () => {
  assert.equal(keyToBytes('enter'), '\r');
  assert.equal(keyToBytes('ctrl-c'), '\x03');
  assert.equal(keyToBytes('Up'), '\x1b[A');
  assert.equal(keyToBytes('up', true), '\x1bOA');
  assert.equal(keyToBytes('alt-x'), '\x1bx');
  assert.equal(keyToBytes('no-such-key'), null);
});

test('bracketed paste cannot be ended early by markers inside the text', () => {
  assert.equal(bracketedPaste('a\x1b[201~\rrm -rf /\nb'), '\x1b[200~a\rrm -rf /\nb\x1b[201~');
  // A marker hidden inside another: removing the inner one must not leave the outer one behind.
  assert.equal(bracketedPaste('done\x1b[20\x1b[201~1~\x1b[Zrest'), '\x1b[200~done\x1b[Zrest\x1b[201~');
  assert.equal(bracketedPaste('\x1b[20\x1b[20\x1b[200~0~1~x'), '\x1b[200~x\x1b[201~');
});

test('stripAnsi removes CSI, OSC and controls, and normalises CR', () => {
  assert.equal(stripAnsi('\x1b[31mred\x1b[0m\r\n\x1b]0;title\x07ok\rbar\x07'), 'red\nok\nbar');
});
