/** patterm's log as history-reader rows: wrapped at the panes' width, warnings and errors coloured, read from its end. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_TAIL_BYTES, LogHistory } from '../../../src/main/tui/log-history.js';
import { frameLines } from '../../../src/shared/frame-text.js';
import { DEFAULT_COLOR } from '../../../src/shared/pane-types.js';
import { THEME } from '../../../src/renderer/theme.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const dir = scratchDir('patterm-log-history-');
const fgOfRow = (cells: Uint32Array, cols: number, row: number) => cells[row * cols * 4 + 1];

test('lines wrap at the width asked for; a negative first row counts from the end', async () => {
  const file = join(dir, 'wrap.log');
  writeFileSync(file, ['2030-01-01T00:00:00.000Z info [thread 0] short', `2030-01-01T00:00:00.000Z warn [thread 3] ${'x'.repeat(30)}`, '2030-01-01T00:00:00.000Z error [thread 0] bad', ''].join('\n'));
  const history = new LogHistory(() => file);
  const all = await history.slice(0, 100, 40);
  const lines = frameLines(all.frame);
  assert.equal(lines[0], file, 'the first row names the file');
  assert.equal(lines[1], '2030-01-01T00:00:00.000Z info [thread 0]');
  assert.equal(lines[2], ' short');
  assert.equal(lines[3], '2030-01-01T00:00:00.000Z warn [thread 3]');
  assert.equal(lines[4], ` ${'x'.repeat(30)}`);
  assert.equal(all.total, lines.length);
  assert.equal(fgOfRow(all.frame.cells, 40, 1), DEFAULT_COLOR);
  assert.equal(fgOfRow(all.frame.cells, 40, 4), THEME.warningText.fg, 'a warning keeps its colour on the rows it wraps to');
  assert.equal(fgOfRow(all.frame.cells, 40, lines.length - 1), THEME.errorText.fg);
  const last = await history.slice(-2, 2, 40);
  assert.equal(last.first, all.total - 2);
  assert.deepEqual(frameLines(last.frame), lines.slice(-2));
});

test('a log that is not there yet, or none at all, says so instead of failing', async () => {
  assert.match(frameLines((await new LogHistory(() => join(dir, 'missing.log')).slice(0, 5, 80)).frame).join('\n'), /nothing logged yet/);
  assert.match(frameLines((await new LogHistory(() => null).slice(0, 5, 80)).frame).join('\n'), /writes no log in this run/);
});

test('only the end of a huge log is read, and the reader is told what was left out', async () => {
  const file = join(dir, 'huge.log');
  const line = `2030-01-01T00:00:00.000Z debug [thread 0] ${'y'.repeat(57)}\n`;
  writeFileSync(file, line.repeat(Math.ceil((LOG_TAIL_BYTES * 1.5) / line.length)) + 'the last line\n');
  const slice = await new LogHistory(() => file).slice(0, 3, 200);
  assert.match(frameLines(slice.frame)[1], /^… \(the log's first \d+ bytes are not shown\)$/);
  assert.ok(slice.total < (LOG_TAIL_BYTES / line.length) * 1.1 + 3);
  assert.deepEqual(frameLines((await new LogHistory(() => file).slice(-1, 1, 200)).frame), ['the last line']);
});
