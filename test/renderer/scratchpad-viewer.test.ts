/** The scratchpad reader's wrapping and scrolling, without a terminal. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScratchpadViewer, wrap } from '../../src/renderer/scratchpad-viewer.js';

test('wrap: long lines break at the width (wide characters whole), headings marked outside code fences, a final newline adds no row', () => {
  const lines = wrap('# Title\nabcdefgh\n日本語x\n```\n# comment\n```\n', 4);
  assert.deepEqual(
    lines.map((line) => `${line.heading ? 'H' : '-'}${line.text}`),
    ['H# Ti', 'Htle', '-abcd', '-efgh', '-日本', '-語x', '-```', '-# co', '-mmen', '-t', '-```'],
  );
});

test('scrolling stays within the document as of the last draw, and a shorter rewrite pulls the view back', () => {
  const viewer = new ScratchpadViewer('notes.md');
  viewer.fitTo(100, 30);
  viewer.scrollToEnd();
  assert.equal(viewer.scroll, 70);
  viewer.scrollBy(50);
  assert.equal(viewer.scroll, 70);
  viewer.fitTo(40, 30);
  assert.equal(viewer.scroll, 10);
  viewer.scrollBy(-100);
  assert.equal(viewer.scroll, 0);
});
