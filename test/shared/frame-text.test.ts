/** frame-text.ts: a frame's rows as text, and where a search match sits in columns. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findInFrameRow, foldCase, frameLines } from '../../src/shared/frame-text.js';
import { findRow } from '../../src/node/cpu-tasks.js';
import type { CellFrame } from '../../src/shared/pane-types.js';
import { graphemes } from '../../src/renderer/text-width.js';

/** A frame whose rows hold `texts`, laid out as the emulator lays them out: a wide character, then its spacer. */
function frameOf(cols: number, texts: string[]): CellFrame {
  const cells = new Uint32Array(cols * texts.length * 4);
  const extra: Record<number, string> = {};
  texts.forEach((text, row) => {
    let col = 0;
    for (const g of graphemes(text)) {
      const index = row * cols + col;
      cells[index * 4] = g.text.codePointAt(0)!;
      cells[index * 4 + 3] = g.width << 8;
      if ([...g.text].length > 1) extra[index] = g.text;
      if (g.width === 2) cells[(index + 1) * 4 + 3] = 0; // the spacer
      col += g.width;
    }
    for (; col < cols; col++) cells[(row * cols + col) * 4 + 3] = 1 << 8;
  });
  const modes = { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false };
  return { rows: texts.length, cols, cells, graphemes: extra, cursor: { x: 0, y: 0, visible: true }, activeScreen: 'primary', screenVersion: 1, bracketedPaste: false, mouseTracking: false, modes };
}

test('rows read back as their text, wide characters and graphemes once', () => {
  assert.deepEqual(frameLines(frameOf(20, ['plain', '日本 text', 'e\u0301 é', ''])), ['plain', '日本 text', 'e\u0301 é', '']);
});

test('a match is found in columns, past wide characters, whatever its case', () => {
  const frame = frameOf(30, ['log 1', 'ERROR: needle 90', '日本語 NEEDLE here', 'nothing']);
  assert.deepEqual(findInFrameRow(frame, 1, 'Needle'), { col: 7, cols: 6 });
  assert.deepEqual(findInFrameRow(frame, 2, 'needle'), { col: 7, cols: 6 }, 'three wide characters take six columns');
  assert.deepEqual(findInFrameRow(frame, 2, '本語'), { col: 2, cols: 4 });
  assert.equal(findInFrameRow(frame, 3, 'needle'), null);
  assert.equal(findInFrameRow(frame, 9, 'needle'), null, 'a row outside the frame');
  assert.equal(findInFrameRow(frame, 1, ''), null);
});

test('a character whose lower case is longer does not shift the match', () => {
  const frame = frameOf(30, ['İİ then match']);
  assert.deepEqual(findInFrameRow(frame, 0, 'match'), { col: 8, cols: 5 });
});

test('the row search and its highlight fold case the same way, final sigma included', () => {
  // As a whole line "ΟΔΟΣ" lower-cases to "οδος" (final ς); cell by cell its Σ is σ.
  const frame = frameOf(30, ['ΟΔΟΣ ΣΤΟ ΒΟΥΝΟ', 'a street: οδος']);
  for (const needle of ['οδος', 'οδοσ', 'ΟΔΟΣ']) {
    assert.equal(findRow({ frame, text: needle, from: -1, direction: 1 }), 0, `${needle}: the search finds the first row`);
    assert.deepEqual(findInFrameRow(frame, 0, needle), { col: 0, cols: 4 }, `${needle}: and the highlight marks it`);
    assert.deepEqual(findInFrameRow(frame, 1, needle), { col: 10, cols: 4 }, `${needle}: a lower-case ς is found too`);
  }
  assert.equal(foldCase('ΟΔΟΣ ς Σ'), 'οδοσ σ σ');
});
