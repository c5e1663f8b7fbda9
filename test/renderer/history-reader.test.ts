import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryReader } from '../../src/renderer/history-reader.js';
import type { HistorySlice } from '../../src/shared/pane-types.js';

const ROWS = 10;
/** What the worker answers for a history of `total` rows (clamped as ghostty-emulator.ts does). */
function answer(total: number, request: { first: number; count: number }): HistorySlice {
  const rows = Math.min(request.count, total);
  const first = Math.max(0, Math.min(request.first < 0 ? total + request.first : request.first, total - rows));
  return { first, total, frame: { rows, cols: 1, cells: new Uint32Array(rows * 4), graphemes: {}, cursor: { x: 0, y: 0, visible: false }, activeScreen: 'primary', screenVersion: 0, bracketedPaste: false, mouseTracking: false, modes: { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false } } };
}

test('opens above the live screen, counted from the bottom before the worker says where that is', () => {
  const reader = new HistoryReader('p', ROWS, 3);
  assert.deepEqual(reader.request(), { first: -13, count: ROWS });
  assert.equal(reader.linesAboveLive, 3);
  assert.equal(reader.receive(answer(100, { first: -13, count: ROWS })), false);
  assert.equal(reader.linesAboveLive, 3);
  assert.deepEqual(reader.request(), { first: 87, count: ROWS });
});

test('scrolls made before the first answer count from the bottom it reports, and a stale answer is asked again once', () => {
  const reader = new HistoryReader('p', ROWS, 3);
  const first = reader.request();
  assert.equal(reader.scrollBy(-3), true);
  const second = reader.request();
  assert.equal(reader.receive(answer(100, first)), false, 'a newer request is on its way');
  assert.equal(reader.receive(answer(100, second)), false, 'the latest answer is current');
  assert.equal(reader.linesAboveLive, 6);
  // Output arrived meanwhile: the same absolute rows stay on screen, further from the live bottom.
  reader.scrollBy(-1);
  const third = reader.request();
  assert.equal(reader.receive(answer(120, { ...third, first: third.first + 5 })), true, 'an answer for other rows, with nothing newer asked: ask again');
});

test('scrolling down to the live bottom ends reading; up stops at the oldest row', () => {
  const reader = new HistoryReader('p', ROWS, 6);
  reader.receive(answer(100, reader.request()));
  assert.equal(reader.scrollBy(-500), true);
  reader.receive(answer(100, reader.request()));
  assert.equal(reader.linesAboveLive, 90, 'at the oldest row');
  assert.equal(reader.scrollBy(89), true);
  assert.equal(reader.scrollBy(1), false, 'the live bottom');
});

test('a history no taller than the screen has nothing to read', () => {
  const reader = new HistoryReader('p', ROWS, 3);
  reader.receive(answer(8, reader.request()));
  assert.equal(reader.isEmpty, true);
});

test('Home before the first answer lands on the oldest row', () => {
  const reader = new HistoryReader('p', ROWS, 3);
  reader.scrollToStart();
  reader.receive(answer(100, reader.request()));
  assert.deepEqual(reader.request(), { first: 0, count: ROWS });
});
