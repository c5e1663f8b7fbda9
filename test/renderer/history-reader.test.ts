import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryReader } from '../../src/renderer/history-reader.js';
import type { HistorySlice } from '../../src/shared/pane-types.js';
import { historyWindow } from '../../src/shared/history-window.js';
import { frameLines } from '../../src/shared/frame-text.js';
import { findRow } from '../../src/node/cpu-tasks.js';

const ROWS = 10;
/** What the worker answers for a history of `total` rows, the oldest numbered `dropped` (clamped as ghostty-emulator.ts does). */
function answer(total: number, request: { first: number; count: number }, dropped = 0): HistorySlice {
  const { start, rows } = historyWindow(request.first, request.count, total, dropped);
  return { first: dropped + start, total, dropped, frame: { rows, cols: 1, cells: new Uint32Array(rows * 4), graphemes: {}, cursor: { x: 0, y: 0, visible: false }, activeScreen: 'primary', screenVersion: 0, bracketedPaste: false, mouseTracking: false, modes: { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false } } };
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

/**
 * A pane's history as a full scrollback behaves: `write` adds numbered lines,
 * and past `capacity` scrollback rows the oldest page of `page` rows is
 * dropped (as ghostty-web prunes), shifting every position. It answers like
 * the worker: rows numbered over the pane's life, `dropped` the oldest's.
 */
class PruningHistory {
  written = 0;
  dropped = 0;
  constructor(private readonly capacity: number, private readonly page: number, private readonly screenRows: number) {}

  write(lines: number): void {
    this.written += lines;
    while (this.written - this.screenRows - this.dropped > this.capacity) this.dropped += this.page;
  }

  /** The text of row number `row`: line N was the Nth written (the screen's last row is the empty one under the cursor). */
  private line(row: number): string {
    return row < this.written ? `line ${row}` : '';
  }

  answer(request: { first: number; count: number }): HistorySlice {
    const total = this.written + 1 - this.dropped;
    const { start, rows } = historyWindow(request.first, request.count, total, this.dropped);
    const lines = Array.from({ length: rows }, (_, i) => this.line(this.dropped + start + i));
    return { first: this.dropped + start, total, dropped: this.dropped, frame: frameOf(lines, 12) };
  }
}

function frameOf(lines: string[], cols: number): HistorySlice['frame'] {
  const cells = new Uint32Array(lines.length * cols * 4);
  for (let i = 0; i < lines.length * cols; i++) cells[i * 4 + 3] = 1 << 8;
  lines.forEach((line, row) => [...line].forEach((ch, col) => (cells[(row * cols + col) * 4] = ch.codePointAt(0)!)));
  return { ...answer(0, { first: 0, count: 0 }).frame, rows: lines.length, cols, cells };
}

const shown = (reader: HistoryReader) => frameLines(reader.slice!.frame);

/** A reader opened on `pane` and scrolled `by` rows (negative: back), with its answers received. */
function openReader(pane: PruningHistory, by: number): HistoryReader {
  const reader = new HistoryReader('p', ROWS, 3);
  reader.receive(pane.answer(reader.request()));
  reader.scrollBy(by);
  reader.receive(pane.answer(reader.request()));
  return reader;
}

test('the view stays on the same lines while the full scrollback drops its oldest rows under it', () => {
  const pane = new PruningHistory(1000, 100, ROWS);
  pane.write(1500);
  const reader = openReader(pane, -200);
  const before = shown(reader);
  assert.equal(before[0], 'line 1288');
  const above = reader.linesAboveLive;

  pane.write(450); // five pages dropped: every position moves up 500 rows
  assert.equal(pane.dropped, 1000);
  reader.scrollBy(-1);
  reader.receive(pane.answer(reader.request()));
  reader.scrollBy(1);
  const stale = reader.receive(pane.answer(reader.request()));
  assert.deepEqual(shown(reader), before, 'the same lines, not the ones 500 rows further on');
  assert.equal(stale, false, 'the answer is for the row asked for');
  assert.equal(reader.lostNotice, null);
  assert.equal(reader.linesAboveLive, above + 450, 'further above the live screen by what was written');

  // A search match found before the drop stays on its line: the highlight is at its number, less the slice's first.
  const all = pane.answer({ first: 0, count: 100_000 });
  const match = findRow({ frame: all.frame, first: all.first, text: 'line 1290', from: reader.topRow! + ROWS, direction: -1 });
  assert.equal(match, 1290, 'the search answers row numbers');
  pane.write(200); // two more pages
  assert.equal(pane.dropped, 1200);
  reader.jumpTo(match - 1);
  reader.receive(pane.answer(reader.request()));
  assert.equal(shown(reader)[match - reader.slice!.first], 'line 1290');
});

test('when the rows the view shows are dropped, it moves to the oldest row kept and says so; Home does not', () => {
  const pane = new PruningHistory(1000, 300, ROWS);
  pane.write(1500);
  const reader = openReader(pane, -10_000);
  assert.equal(shown(reader)[0], `line ${pane.dropped}`, 'at the oldest row');
  assert.equal(reader.lostNotice, null);

  const was = reader.topRow!;
  pane.write(310);
  reader.scrollBy(2);
  assert.equal(reader.receive(pane.answer(reader.request())), false);
  assert.equal(shown(reader)[0], `line ${pane.dropped}`, 'the oldest row kept, not a row from further on');
  assert.ok(was + 2 < pane.dropped, 'the rows asked for were dropped');
  assert.match(reader.lostNotice!, /Lines you were reading left the full scrollback: showing the oldest kept/);
  assert.equal(reader.topRow, pane.dropped);

  reader.scrollBy(1);
  reader.receive(pane.answer(reader.request()));
  assert.equal(reader.lostNotice, null, 'said once');
  assert.equal(shown(reader)[0], `line ${pane.dropped + 1}`);

  // Home asks for the oldest row, whichever it is when the answer comes: nothing was lost.
  reader.scrollToStart();
  const home = reader.request();
  pane.write(300);
  reader.receive(pane.answer(home));
  assert.equal(reader.lostNotice, null);
  assert.equal(shown(reader)[0], `line ${pane.dropped}`);
});
