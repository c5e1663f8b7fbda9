/**
 * The TUI's history reader over a real pane (a PTY, its worker thread and
 * ghostty-web) whose scrollback is full: as output goes on, ghostty drops its
 * oldest rows a page at a time, and the reader must stay on the lines it
 * shows; when they are dropped too, it moves to the oldest line kept and says
 * so. The same numbers hold once the exited pane's worker is retired.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryReader } from '../../src/renderer/history-reader.js';
import { frameLines } from '../../src/shared/frame-text.js';
import type { Coordinator } from '../../src/main/coordinator.js';
import { eventually, useCoordinator } from '../helpers/coordinator-fixture.js';

const coordinator = useCoordinator();
coordinator.retirement.afterExitMs = 60_000; // retired when the test says so

const ROWS = 20;
const TIMEOUT = 20_000;

/** Sends the reader's request to the pane and hands it the answer, as the TUI bridge does; returns the lines shown. */
async function read(coordinator: Coordinator, reader: HistoryReader): Promise<string[]> {
  const { first, count } = reader.request();
  assert.equal(reader.receive(await coordinator.history(reader.paneId, first, count)), false, 'the answer is for the rows asked for');
  return frameLines(reader.slice!.frame);
}

/** Moves the view away and back, so the reader asks for the rows it shows again (as the next wheel notch would). */
async function reread(coordinator: Coordinator, reader: HistoryReader): Promise<string[]> {
  reader.scrollBy(-1);
  await read(coordinator, reader);
  reader.scrollBy(1);
  return read(coordinator, reader);
}

test('the reader stays on the lines it shows while the full scrollback drops rows, then moves to the oldest kept and says so', async () => {
  // Each `read` waits for Enter (from the test) before the next burst; 120 columns: ~2650 scrollback rows, 393 a page.
  const script = 'seq -f "line %g" 1 6000; read; seq -f "line %g" 6001 7000; read; seq -f "line %g" 7001 13000; read';
  const pane = await coordinator.spawn({ argv: ['bash', '--norc', '--noprofile', '-c', script], kind: 'process', name: 'pruning' });
  const waitLine = async (line: string) => assert.equal((await coordinator.waitFor(pane.id, { pattern: `^${line}$`, timeoutMs: TIMEOUT })).matched, true, line);
  await waitLine('line 6000');

  const reader = new HistoryReader(pane.id, ROWS, 3);
  await read(coordinator, reader);
  const droppedAtOpen = reader.slice!.dropped;
  assert.ok(reader.slice!.total < 3000, `6000 lines overflowed the scrollback already (${reader.slice!.total} rows held)`);
  reader.scrollBy(-150);
  const before = await read(coordinator, reader);
  assert.match(before[0], /^line \d+$/);
  const above = reader.linesAboveLive;

  // A thousand more lines: ghostty drops two or three more pages, and every position shifts up by as many rows.
  coordinator.write(pane.id, '\r', 'user');
  await waitLine('line 7000');
  const after = await reread(coordinator, reader);
  assert.deepEqual(after, before, 'the same lines as before the drop');
  assert.ok(reader.slice!.dropped >= droppedAtOpen + 393, `a page or more was dropped meanwhile (${droppedAtOpen} -> ${reader.slice!.dropped})`);
  assert.equal(reader.lostNotice, null);
  assert.equal(reader.linesAboveLive, above + 1001, 'further from the live screen by the lines printed (and the Enter echoed)');

  // Six thousand more: the whole scrollback turns over, the lines read with it.
  coordinator.write(pane.id, '\r', 'user');
  await waitLine('line 13000');
  reader.scrollBy(1); // the next wheel notch down
  const moved = await read(coordinator, reader);
  assert.match(reader.lostNotice ?? '', /left the full scrollback: showing the oldest kept/);
  const oldest = frameLines((await coordinator.history(pane.id, 0, 1)).frame)[0];
  assert.equal(moved[0], oldest, 'the view starts at the oldest line kept');
  assert.ok(Number(/^line (\d+)$/.exec(moved[0])?.[1]) > 10_000, `not a line from before: ${moved[0]}`);

  // The pane exits and its worker is retired: the rows keep their numbers, so the view stays put.
  reader.scrollBy(40);
  const live = await read(coordinator, reader);
  coordinator.retirement.afterExitMs = 200;
  coordinator.write(pane.id, '\r', 'user');
  await coordinator.exitPromise(pane.id);
  await eventually(() => coordinator.workerRetired(pane.id), { timeoutMs: 10_000, message: 'the pane to be retired' });
  assert.deepEqual(await reread(coordinator, reader), live, 'the same lines from what the retired pane left');
});
