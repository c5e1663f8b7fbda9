/**
 * The run's log: a TUI run writes one file under $XDG_STATE_HOME/patterm/logs
 * by default, keeps the last few runs, and every thread (workers started after
 * it, and their workers) writes there and counts its warnings in one place.
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { logDirectory, pruneRunLogs, runLogName, startRunLog } from '../../src/node/run-log.js';
import { logFile, runWarnings, shareRunLog } from '../../src/node/patterm-log.js';
import { scratchDir } from '../helpers/scratch-dir.js';

const PATTERM_LOG_URL = new URL('../../src/node/patterm-log.js', import.meta.url).href;
const saved = { log: process.env.PATTERM_LOG, level: process.env.PATTERM_LOG_LEVEL };

afterEach(() => {
  shareRunLog(undefined);
  for (const [key, value] of [['PATTERM_LOG', saved.log], ['PATTERM_LOG_LEVEL', saved.level]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** A pid no process has: beyond the kernel's pid_max. */
const DEAD_PID = 2 ** 22 + 1;

test('the log directory is under XDG_STATE_HOME, or ~/.local/state without it', () => {
  assert.equal(logDirectory({ XDG_STATE_HOME: '/state', HOME: '/home/u' }), '/state/patterm/logs');
  assert.equal(logDirectory({ HOME: '/home/u' }), '/home/u/.local/state/patterm/logs');
  assert.equal(logDirectory({ XDG_STATE_HOME: 'relative', HOME: '/home/u' }), '/home/u/.local/state/patterm/logs');
});

test('without PATTERM_LOG a run gets its own file, named so that names sort by start time', () => {
  delete process.env.PATTERM_LOG;
  delete process.env.PATTERM_LOG_LEVEL;
  const directory = join(scratchDir('patterm-run-log-'), 'logs');
  const run = startRunLog({ directory, startedAt: new Date('2030-01-02T03:04:05.678Z'), pid: 4242, env: {} });
  assert.equal(run.problem, null);
  assert.equal(run.path, join(directory, 'patterm-2030-01-02T03-04-05.678Z-4242.log'));
  assert.equal(logFile(), run.path);
  assert.ok(runLogName(new Date('2030-01-02T03:04:05.678Z'), 1) < runLogName(new Date('2030-01-02T03:04:06Z'), 1));
});

test('with PATTERM_LOG set, no run file is made and lines go where it says', () => {
  const dir = scratchDir('patterm-run-log-');
  process.env.PATTERM_LOG = join(dir, 'chosen.log');
  const run = startRunLog({ directory: join(dir, 'logs'), env: process.env });
  assert.equal(run.path, null);
  assert.equal(logFile(), join(dir, 'chosen.log'));
  assert.equal(existsSync(join(dir, 'logs')), false);
  assert.ok(runWarnings(), 'warnings are still counted');
});

test('a directory that cannot be made leaves the run without a file, and says why', () => {
  delete process.env.PATTERM_LOG;
  const dir = scratchDir('patterm-run-log-');
  writeFileSync(join(dir, 'file'), '');
  const run = startRunLog({ directory: join(dir, 'file', 'logs'), env: {} });
  assert.equal(run.path, null);
  assert.match(run.problem ?? '', /cannot make the log directory .*file\/logs: (ENOTDIR|EEXIST)/);
  assert.equal(logFile(), null);
});

test('only the newest runs are kept, and a log whose run is still alive is never removed', () => {
  const directory = scratchDir('patterm-run-log-');
  const names = [1, 2, 3, 4, 5].map((second) => runLogName(new Date(`2030-01-01T00:00:0${second}Z`), DEAD_PID));
  const live = runLogName(new Date('2029-12-31T00:00:00Z'), process.pid);
  for (const name of [...names, live, 'notes.txt']) writeFileSync(join(directory, name), 'x');
  pruneRunLogs(directory, 2);
  assert.deepEqual(readdirSync(directory).sort(), [live, ...names.slice(3), 'notes.txt'].sort());
});

test('starting a run prunes to the number kept, the new run included', () => {
  delete process.env.PATTERM_LOG;
  const directory = scratchDir('patterm-run-log-');
  for (let second = 0; second < 5; second++) writeFileSync(join(directory, runLogName(new Date(`2030-01-01T00:00:0${second}Z`), DEAD_PID)), 'x');
  const run = startRunLog({ directory, keep: 3, startedAt: new Date('2030-01-02T00:00:00Z'), env: {} });
  writeFileSync(run.path!, 'started\n');
  run.prune();
  assert.equal(readdirSync(directory).length, 3);
  assert.ok(existsSync(run.path!));
});

/** Logs a warning at `depth`, then starts the same code one thread deeper, until `deepest`; settles when all have ended. */
const THREAD_CODE = `
  const { Worker, workerData } = require('node:worker_threads');
  import(workerData.logUrl).then(async ({ log, logDegraded }) => {
    logDegraded('depth ' + workerData.depth, new Error('fault'));
    log.info('no warning at depth ' + workerData.depth);
    if (workerData.depth === workerData.deepest) return;
    const child = new Worker(workerData.code, { eval: true, workerData: { ...workerData, depth: workerData.depth + 1 } });
    await new Promise((resolve) => child.on('exit', resolve));
  });`;

test('every thread started after the run began writes to its log and counts its warnings, nested workers too', async () => {
  delete process.env.PATTERM_LOG;
  delete process.env.PATTERM_LOG_LEVEL;
  const run = startRunLog({ directory: scratchDir('patterm-run-log-'), env: {} });
  const worker = new Worker(THREAD_CODE, { eval: true, workerData: { code: THREAD_CODE, logUrl: PATTERM_LOG_URL, depth: 1, deepest: 2 } });
  const exitCode = await new Promise((resolve) => worker.on('exit', resolve));
  assert.equal(exitCode, 0);
  const text = readFileSync(run.path!, 'utf8');
  assert.match(text, / warn \[thread \d+\] depth 1: fault\n/);
  assert.match(text, / warn \[thread \d+\] depth 2: fault\n/);
  assert.match(text, / info \[thread \d+\] no warning at depth 2\n/);
  assert.equal(run.counter.count, 2, 'two warnings, from two threads, in one count');
});
