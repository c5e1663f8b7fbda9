/**
 * An exited pane's worker is retired after a while (RETIRE_AFTER_EXIT_MS) and
 * what it left answers in its place: every read must give what the live
 * worker gave, and the worker thread must really be gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import type { CellFrame } from '../../../src/shared/pane-types.js';
import { eventually, sleep, useCoordinator } from '../../helpers/coordinator-fixture.js';

const coordinator = useCoordinator();
/** Long enough to read the live pane first; the tests wait for retirement with eventually(). */
const RETIRE_AFTER_MS = 300;
coordinator.retirement.afterExitMs = RETIRE_AFTER_MS;

/** Coloured lines, wide characters, more than a screen of scrollback, then a last line: exits at once. */
const OUTPUT = ['bash', '--norc', '--noprofile', '-c', 'printf "\\033[31mred\\033[0m 漢字 start\\n"; seq 1 400; printf "LAST line\\n"'];
const threadCount = () => readdirSync('/proc/self/task').length;

test('a retired pane answers grid, history, stream, waits and idle state as its worker did, and its thread is gone', async () => {
  coordinator.retirement.afterExitMs = 60_000; // keep this one live until everything is read
  const pane = await coordinator.spawn({ argv: OUTPUT, kind: 'process', name: 'frozen-reads' });
  await coordinator.exitPromise(pane.id);
  const grid = await coordinator.grid(pane.id);
  const history = await coordinator.history(pane.id, -120, 120);
  const stream = await coordinator.stream(pane.id, 0);
  const cells = await coordinator.cells(pane.id);
  assert.equal(coordinator.workerRetired(pane.id), false);

  const threadsBefore = threadCount();
  coordinator.retirement.afterExitMs = RETIRE_AFTER_MS;
  const second = await coordinator.spawn({ argv: OUTPUT, kind: 'process', name: 'frozen-reads-2' });
  await coordinator.exitPromise(second.id);
  const secondGrid = await coordinator.grid(second.id);
  await eventually(() => coordinator.workerRetired(second.id), { timeoutMs: 10_000, message: 'the second pane to be retired' });
  await eventually(() => threadCount() < threadsBefore + 1, { message: 'its worker thread to end' });

  // The second pane ran the same program: compare its frozen answers with the first pane's live ones.
  const frozenGrid = await coordinator.grid(second.id);
  assert.deepEqual(frozenGrid.lines, grid.lines);
  assert.deepEqual(frozenGrid.cursor, grid.cursor);
  assert.equal(frozenGrid.screenVersion, secondGrid.screenVersion);
  assert.deepEqual((await coordinator.grid(second.id, secondGrid.screenVersion)).changedRows, [], 'nothing changed since the version it had');
  const frozenHistory = await coordinator.history(second.id, -120, 120);
  assert.equal(frozenHistory.frame.rows, history.frame.rows);
  assert.deepEqual(frozenHistory.frame.cells, history.frame.cells, 'the same cells, colours and all');
  assert.deepEqual(frozenHistory.frame.graphemes, history.frame.graphemes);
  const frozenStream = await coordinator.stream(second.id, 0);
  assert.deepEqual(frozenStream.bytes, stream.bytes);
  assert.equal(frozenStream.headOffset, stream.headOffset);
  const tail = await coordinator.stream(second.id, stream.headOffset - 10);
  assert.equal(Buffer.from(tail.bytes).toString(), 'LAST line\r\n'.slice(-10));
  assert.deepEqual((await coordinator.cells(second.id)).cells, cells.cells);

  const found = await coordinator.waitFor(second.id, { pattern: '^LAST line$', timeoutMs: 1000 });
  assert.equal(found.matched, true);
  const started = performance.now();
  const missing = await coordinator.waitFor(second.id, { pattern: 'never printed', timeoutMs: 150 });
  assert.equal(missing.matched, false);
  assert.ok(performance.now() - started >= 140, 'an unmatched wait still waits out its timeout');

  const idle = await coordinator.idleState(second.id);
  await eventually(async () => (await coordinator.idleState(second.id)).idleMs >= idle.idleMs + 40, { message: 'the idle clock to keep running' });
});

test('a pane the TUI shows is not retired until it is no longer shown, and a frozen pane still sends the TUI its screen', async () => {
  const pane = await coordinator.spawn({ argv: OUTPUT, kind: 'process', name: 'shown' });
  const shown = new MessageChannel();
  coordinator.attachFrameSink(pane.id, shown.port1);
  await coordinator.exitPromise(pane.id);
  await sleep(RETIRE_AFTER_MS * 3);
  assert.equal(coordinator.workerRetired(pane.id), false, 'kept while shown');
  shown.port2.close();
  coordinator.clearFrameSink();
  await eventually(() => coordinator.workerRetired(pane.id), { timeoutMs: 10_000, message: 'retirement once no longer shown' });

  const again = new MessageChannel();
  const frame = new Promise<CellFrame>((resolve) => again.port2.once('message', resolve));
  coordinator.attachFrameSink(pane.id, again.port1);
  const received = await frame;
  assert.ok(received.cells.length > 0);
  assert.deepEqual(received.cells, (await coordinator.cells(pane.id)).cells);
  again.port2.close();
  coordinator.clearFrameSink();
});

test('a pending wait keeps the worker until it ends', async () => {
  const pane = await coordinator.spawn({ argv: OUTPUT, kind: 'process', name: 'awaited' });
  await coordinator.exitPromise(pane.id);
  const waiting = coordinator.waitFor(pane.id, { pattern: 'never printed', timeoutMs: RETIRE_AFTER_MS * 4 });
  await sleep(RETIRE_AFTER_MS * 2);
  assert.equal(coordinator.workerRetired(pane.id), false, 'not retired under a pending wait');
  assert.equal((await waiting).matched, false);
  await eventually(() => coordinator.workerRetired(pane.id), { timeoutMs: 10_000, message: 'retirement after the wait ended' });
});

test('a wait that the pane\'s exit answered does not hold the worker until its own timeout', async () => {
  const pane = await coordinator.spawn({ argv: ['sh', '-c', 'sleep 0.3; echo bye'], kind: 'process', name: 'exits-under-wait' });
  const result = await coordinator.waitFor(pane.id, { pattern: 'never printed', timeoutMs: 600_000 });
  assert.equal(result.exited, true);
  await eventually(() => coordinator.workerRetired(pane.id), { timeoutMs: 10_000, message: 'retirement after the exit ended the wait' });
});

test('a running pane is never retired', async () => {
  const pane = await coordinator.spawn({ argv: ['sleep', '30'], kind: 'process', name: 'running' });
  await sleep(RETIRE_AFTER_MS * 2);
  assert.equal(coordinator.workerRetired(pane.id), false);
  await coordinator.kill(pane.id, 'SIGKILL', 0);
});

test('a narrow pane keeps all of its longer history when retired, as a wide one does', async () => {
  // A live pane's scrollback holds about the same number of cells at any width: at 40 columns, twice
  // the lines it holds at 80. A retirement that kept a fixed number of rows lost the oldest of them.
  const narrow = ['bash', '--norc', '--noprofile', '-c', 'seq 1 7000'];
  const size = coordinator.paneSize;
  coordinator.setPaneSize(40, 20);
  try {
    coordinator.retirement.afterExitMs = 60_000;
    const live = await coordinator.spawn({ argv: narrow, kind: 'process', name: 'narrow-live' });
    await coordinator.exitPromise(live.id);
    const liveTotal = (await coordinator.history(live.id, 0, 1)).total;
    assert.ok(liveTotal > 4500, `the live pane holds more than the old 4000-row limit (${liveTotal} rows)`);
    const liveOldest = await coordinator.history(live.id, 0, 5);

    coordinator.retirement.afterExitMs = RETIRE_AFTER_MS;
    const retired = await coordinator.spawn({ argv: narrow, kind: 'process', name: 'narrow-retired' });
    await coordinator.exitPromise(retired.id);
    await eventually(() => coordinator.workerRetired(retired.id), { timeoutMs: 10_000, message: 'the narrow pane to be retired' });
    const frozenOldest = await coordinator.history(retired.id, 0, 5);
    assert.equal(frozenOldest.total, liveTotal);
    assert.deepEqual(frozenOldest.frame.cells, liveOldest.frame.cells, 'the oldest rows are the same');
  } finally {
    coordinator.setPaneSize(size.cols, size.rows);
    coordinator.retirement.afterExitMs = RETIRE_AFTER_MS;
  }
});
