/** The input tokenizer keeps each key's exact bytes, names keys with terminal-kit's names, and reassembles split sequences. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputTokenizer, type InputToken } from '../../src/renderer/input-tokenizer.js';
import { isKnownKeyName, keyName } from '../../src/renderer/key-names.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function tokens(...chunks: string[]): InputToken[] {
  const tokenizer = new InputTokenizer();
  const out = chunks.flatMap((chunk) => tokenizer.feed(bytes(chunk)));
  return [...out, ...tokenizer.flush()];
}

test('keys keep their bytes and get terminal-kit names', () => {
  const keys = tokens('a\x0b\r\x1b[A\x1bOB\x1b[1;5C\x1b[15~\x1bx漢');
  assert.deepEqual(
    keys.map((t) => (t.type === 'key' ? [t.sequence, t.name] : t.type)),
    [
      ['a', 'a'],
      ['\x0b', 'CTRL_K'],
      ['\r', 'ENTER'],
      ['\x1b[A', 'UP'],
      ['\x1bOB', 'DOWN'],
      ['\x1b[1;5C', 'CTRL_RIGHT'],
      ['\x1b[15~', 'F5'],
      ['\x1bx', 'ALT_X'],
      ['漢', '漢'],
    ],
  );
});

test('a sequence split across reads is one key; a lone Escape is released by flush()', () => {
  const tokenizer = new InputTokenizer();
  assert.deepEqual(tokenizer.feed(bytes('\x1b')), []);
  assert.ok(tokenizer.hasPending);
  assert.deepEqual(tokenizer.feed(bytes('[')), []);
  assert.deepEqual(tokenizer.feed(bytes('A')), [{ type: 'key', sequence: '\x1b[A', name: 'UP' }]);
  assert.deepEqual(tokenizer.feed(bytes('\x1b')), []);
  assert.deepEqual(tokenizer.flush(), [{ type: 'key', sequence: '\x1b', name: 'ESCAPE' }]);
  // UTF-8 split mid-character.
  const wide = bytes('漢');
  assert.deepEqual(tokenizer.feed(wide.subarray(0, 1)), []);
  assert.deepEqual(tokenizer.feed(wide.subarray(1)), [{ type: 'key', sequence: '漢', name: '漢' }]);
});

test('SGR and X10 mouse reports, focus reports and bracketed pastes are recognised', () => {
  assert.deepEqual(tokens('\x1b[<0;10;5M\x1b[<0;10;5m'), [
    { type: 'mouse', mouse: { code: 0, x: 9, y: 4, release: false } },
    { type: 'mouse', mouse: { code: 0, x: 9, y: 4, release: true } },
  ]);
  assert.deepEqual(tokens('\x1b[M !!'), [{ type: 'mouse', mouse: { code: 0, x: 0, y: 0, release: false } }]);
  assert.deepEqual(tokens('\x1b[I\x1b[O'), [
    { type: 'focus', focused: true },
    { type: 'focus', focused: false },
  ]);
  // A paste is one token however it is split, and a Ctrl-K inside it is text, not the palette key.
  assert.deepEqual(tokens('\x1b[200~line one\n\x0b', 'line two\x1b[2', '01~x'), [
    { type: 'paste', text: 'line one\n\x0bline two' },
    { type: 'key', sequence: 'x', name: 'x' },
  ]);
});

test('key names for config: terminal-kit names, characters and ALT_<char> are known; others are not', () => {
  for (const name of ['CTRL_N', 'ALT_LEFT', 'F5', 'SHIFT_TAB', 'PAGE_DOWN', 'x', 'ALT_1']) assert.ok(isKnownKeyName(name), name);
  for (const name of ['CTRL_NOPE', 'HYPER_X', '']) assert.ok(!isKnownKeyName(name), name);
  assert.equal(keyName('\x7f'), 'BACKSPACE');
  assert.equal(keyName('\t'), 'TAB');
});

test('a paste that pauses longer than the Escape timeout stays a paste until its end marker', () => {
  const tokenizer = new InputTokenizer();
  const enc = (text: string) => new TextEncoder().encode(text);
  assert.deepEqual(tokenizer.feed(enc('\x1b[200~echo one\n')), []);
  assert.deepEqual(tokenizer.flush(), [{ type: 'paste', text: 'echo one\n' }]);
  assert.deepEqual(tokenizer.feed(enc('echo two\n\x1b[20')), []);
  assert.deepEqual(tokenizer.flush(), [{ type: 'paste', text: 'echo two\n' }], 'a partial end marker is held back');
  assert.deepEqual(tokenizer.feed(enc('1~x')), [{ type: 'key', sequence: 'x', name: 'x' }]);
});
