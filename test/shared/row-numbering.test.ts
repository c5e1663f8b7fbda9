/** row-numbering.ts: how many rows the scrollback dropped, worked out from its rows' hashes alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearestRow, RowNumbering } from '../../src/shared/row-numbering.js';

/** A scrollback holding lines `from` .. `to` - 1, as hashes (the line's own number stands for its hash). */
const held = (from: number, to: number) => Uint32Array.from({ length: to - from }, (_, i) => from + i);

test('rows dropped from the top are counted, whatever was added below meanwhile', () => {
  const numbering = new RowNumbering();
  assert.equal(numbering.sync(held(0, 1000)), 0);
  assert.equal(numbering.sync(held(0, 1200)), 0, 'rows added, none dropped');
  assert.equal(numbering.sync(held(588, 1300)), 588, 'a page dropped and rows added');
  assert.equal(numbering.sync(held(1176, 1800)), 1176, 'another page, with more added than dropped');
  assert.equal(numbering.sync(held(1764, 1800)), 1764, 'dropped with nothing added');
});

test('when every row seen has gone, all of them count as dropped and no number is given twice', () => {
  const numbering = new RowNumbering();
  numbering.sync(held(0, 1000));
  // The scrollback turned over completely between two reads: rows 1000..4999 came and went unseen.
  assert.equal(numbering.sync(held(5000, 6000)), 1000, 'the thousand rows seen, and no more');
  assert.equal(numbering.sync(held(5500, 6100)), 1500, 'and the count goes on from there');
  assert.equal(numbering.sync(new Uint32Array(0)), 2100, 'a cleared scrollback dropped everything');
});

test('repeated lines: the shortest shift that leaves the same text in place', () => {
  const numbering = new RowNumbering();
  const same = (n: number) => new Uint32Array(n).fill(7);
  numbering.sync(same(500));
  assert.equal(numbering.sync(same(600)), 0, 'the same line over and over: nothing shows as moved');
  // Lines that repeat every three rows, a full scrollback, then a page of 588 dropped and as many added:
  // a shift of 588 = 196 * 3 leaves every row showing what it showed.
  const cycle = (from: number, to: number) => Uint32Array.from({ length: to - from }, (_, i) => (from + i) % 3);
  const periodic = new RowNumbering();
  periodic.sync(cycle(0, 900));
  assert.equal(periodic.sync(cycle(588, 1488)), 0);
  // A drop the cycle does not divide: the smallest shift that matches (589 = 196 * 3 + 1).
  const offCycle = new RowNumbering();
  offCycle.sync(cycle(0, 900));
  assert.equal(offCycle.sync(cycle(589, 1489)), 1);
});

test('after a resize (rows rewritten in place) the next sync counts nothing as dropped, and counting goes on from there', () => {
  const numbering = new RowNumbering();
  numbering.sync(held(0, 1000));
  assert.equal(numbering.sync(held(588, 1300)), 588);
  numbering.rebase();
  // Reflowed: every hash differs from what was seen.
  assert.equal(numbering.sync(held(10_000, 10_900)), 588, 'the reflowed rows are the ones held, not dropped ones');
  assert.equal(numbering.sync(held(10_400, 11_000)), 988, 'drops after it count again');
});

/** `rows` that counts how many of them a sync reads. */
function counted(rows: Uint32Array): { rows: { length: number; at(index: number): number | undefined }; reads: () => number } {
  let reads = 0;
  return { rows: { length: rows.length, at: (index) => (reads++, rows[index]) }, reads: () => reads };
}

test('a sync reads a few rows and the ones added since, not the whole scrollback', () => {
  const numbering = new RowNumbering();
  numbering.sync(held(0, 20_000));
  const unchanged = counted(held(0, 20_000));
  assert.equal(numbering.sync(unchanged.rows), 0);
  assert.ok(unchanged.reads() <= 8, `read ${unchanged.reads()} rows of an unchanged scrollback`);
  const paged = counted(held(588, 20_100));
  assert.equal(numbering.sync(paged.rows), 588);
  assert.ok(paged.reads() <= 8 + 688, `read ${paged.reads()} rows for a page dropped and 688 added`);
});

test('output repeating every few lines lines up at many shifts: the right one is found, checking a few or, past a share, every row', () => {
  const alternating = (length: number, tail: number) => Uint32Array.from({ length: length + tail }, (_, i) => (i < length ? i % 2 : 5));
  // The probe (0,1,0,1) lines up at every even shift below the true one, and each fails the check of its last row.
  const few = new RowNumbering();
  few.sync(alternating(3000, 0));
  const paged = counted(alternating(2412, 588));
  assert.equal(few.sync(paged.rows), 588);
  assert.ok(paged.reads() < 3000, `read ${paged.reads()} rows: 294 candidates are within the share`);
  const many = new RowNumbering();
  many.sync(alternating(3000, 0));
  const turned = counted(alternating(1000, 2000));
  assert.equal(many.sync(turned.rows), 2000);
  assert.ok(turned.reads() <= 3000 * 1.5 + 4, `read ${turned.reads()} rows: 1000 candidates, then every row`);
});

test("nearestRow: the history reader's jump to the previous or next command's prompt row", () => {
  const prompts = [3, 40, 95];
  assert.equal(nearestRow(prompts, 41, -1), 40);
  assert.equal(nearestRow(prompts, 40, -1), 3, 'from a prompt, back goes to the one before it');
  assert.equal(nearestRow(prompts, 40, 1), 95);
  assert.equal(nearestRow(prompts, 3, -1), -1);
  assert.equal(nearestRow(prompts, 95, 1), -1);
  assert.equal(nearestRow([], 10, -1), -1);
});
