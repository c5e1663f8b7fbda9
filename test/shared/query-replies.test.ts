import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replyToQuery, type TerminalStateView } from '../../src/shared/query-replies.js';

const state: TerminalStateView = {
  rows: 24,
  cols: 80,
  cursorX: 4,
  cursorY: 2,
  modeState: (mode) => (mode === 2004 ? true : mode === 1 ? false : null),
};

test('answers device attribute queries like an xterm-compatible terminal', () => {
  assert.equal(replyToQuery({ kind: 'da1' }, state, '1'), '\x1b[?62;22c');
  assert.equal(replyToQuery({ kind: 'da2' }, state, '1'), '\x1b[>1;10;0c');
  assert.equal(replyToQuery({ kind: 'xtversion' }, state, '1.2'), '\x1bP>|patterm(1.2)\x1b\\');
});

test('answers DECRQM from the emulator mode state: set, reset, unknown', () => {
  assert.equal(replyToQuery({ kind: 'decrqm', mode: 2004, dec: true }, state, '1'), '\x1b[?2004;1$y');
  assert.equal(replyToQuery({ kind: 'decrqm', mode: 1, dec: true }, state, '1'), '\x1b[?1;2$y');
  assert.equal(replyToQuery({ kind: 'decrqm', mode: 9999, dec: true }, state, '1'), '\x1b[?9999;0$y');
});

test('reports size, cursor and colours', () => {
  assert.equal(replyToQuery({ kind: 'window-report', op: 18 }, state, '1'), '\x1b[8;24;80t');
  assert.equal(replyToQuery({ kind: 'cursor-position-dec' }, state, '1'), '\x1b[?3;5R');
  assert.equal(replyToQuery({ kind: 'color', target: 'background', osc: 11 }, state, '1'), '\x1b]11;rgb:0000/0000/0000\x1b\\');
  assert.equal(replyToQuery({ kind: 'color', target: 'palette', index: 1, osc: 4 }, state, '1'), '\x1b]4;1;rgb:cdcd/0000/0000\x1b\\');
});
