/**
 * The levelled log: lines go to PATTERM_LOG (else to the run's log, see
 * run-log.test.ts), at the level PATTERM_LOG_LEVEL allows; benign errors
 * patterm goes on past are logged at debug and costly ones at warn, with what
 * it was doing, from Node code and from pure code alike.
 */
import { test, beforeEach, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ignoreError, log, logDegraded, logIgnored, pattermLog, runWarnings, shareRunLog, warnError } from '../../src/node/patterm-log.js';
import { WarningCounter } from '../../src/node/warning-counter.js';
import { Emitter } from '../../src/shared/events.js';

const dir = mkdtempSync(join(tmpdir(), 'patterm-log-'));
let file = '';
let count = 0;
const logged = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');

beforeEach(() => {
  file = join(dir, `log-${++count}`);
  process.env.PATTERM_LOG = file;
  delete process.env.PATTERM_LOG_LEVEL;
});
after(() => {
  delete process.env.PATTERM_LOG;
  delete process.env.PATTERM_LOG_LEVEL;
  rmSync(dir, { recursive: true, force: true });
});

test('at the default level, info and above are written and ignored errors are not', () => {
  pattermLog('said at info');
  log.warn('said at warn');
  logIgnored('doing something optional', new Error('it failed'));
  const text = logged();
  assert.match(text, / info \[thread \d+\] said at info\n/);
  assert.match(text, / warn \[thread \d+\] said at warn\n/);
  assert.doesNotMatch(text, /doing something optional/);
});

test('at debug, an ignored error is logged with its context and its code', async () => {
  process.env.PATTERM_LOG_LEVEL = 'debug';
  const result = await readFile(join(dir, 'missing')).catch(ignoreError('reading a file that is not there'));
  assert.equal(result, undefined);
  const fallback = await Promise.reject(new Error('boom')).catch(ignoreError('a call with a fallback', 42));
  assert.equal(fallback, 42);
  const text = logged();
  assert.match(text, / debug \[thread \d+\] ignored: reading a file that is not there: ENOENT: /);
  assert.match(text, /ignored: a call with a fallback: boom\n/);
});

test('a costly error is logged at warn by default, with its context, and counted', async () => {
  const counter = new WarningCounter();
  shareRunLog({ path: null, warnings: counter.buffer });
  try {
    const fallback = await Promise.reject(new Error('EIO on the master')).catch(warnError('writing input to pane p1; it is lost', 'gone'));
    assert.equal(fallback, 'gone');
    logDegraded('freezing pane p2', new Error('worker busy'));
    logIgnored('a benign one', new Error('not counted'));
    const text = logged();
    assert.match(text, / warn \[thread \d+\] writing input to pane p1; it is lost: EIO on the master\n/);
    assert.match(text, / warn \[thread \d+\] freezing pane p2: worker busy\n/);
    assert.doesNotMatch(text, /a benign one/);
    assert.equal(runWarnings()?.count, 2, 'each warning counts once');
    log.error('an error counts too');
    assert.equal(runWarnings()?.count, 3);
  } finally {
    shareRunLog(undefined);
  }
});

test('warnings below the level asked for are neither written nor counted', () => {
  process.env.PATTERM_LOG_LEVEL = 'error';
  const counter = new WarningCounter();
  shareRunLog({ path: null, warnings: counter.buffer });
  try {
    logDegraded('dropped at level error', new Error('x'));
    assert.equal(logged(), '');
    assert.equal(counter.count, 0);
  } finally {
    shareRunLog(undefined);
  }
});

test('pure code reports the errors it goes on past through the same log', () => {
  process.env.PATTERM_LOG_LEVEL = 'debug';
  const emitter = new Emitter<number>();
  const seen: number[] = [];
  emitter.event(() => {
    throw new Error('a broken listener');
  });
  emitter.event((value) => seen.push(value));
  emitter.fire(7);
  assert.deepEqual(seen, [7], 'the other listener still ran');
  assert.match(logged(), / warn \[thread \d+\] an event listener threw; what it was to do is not done: a broken listener/);
});

test('without PATTERM_LOG or a run log nothing is written anywhere, at any level', () => {
  delete process.env.PATTERM_LOG;
  process.env.PATTERM_LOG_LEVEL = 'debug';
  log.error('nowhere');
  logIgnored('nowhere', new Error('x'));
  assert.equal(existsSync(file), false);
});

test('an unknown PATTERM_LOG_LEVEL falls back to info', () => {
  process.env.PATTERM_LOG_LEVEL = 'verbose';
  log.info('kept');
  log.debug('dropped');
  assert.match(logged(), /kept/);
  assert.doesNotMatch(logged(), /dropped/);
});
