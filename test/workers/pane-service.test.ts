/**
 * PaneService.onOutput: how one output batch reaches the emulator when the
 * emulator has to be rebuilt in the middle of it; historySlice: row numbers
 * that outlast the scrollback's pruning and the emulator's rebuilds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PaneService } from '../../src/workers/pane-service.js';
import { armEmulatorTrap } from '../fixtures/fault-injection/emulator-trap.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import { frameLines } from '../../src/shared/frame-text.js';
import { HistoryReader } from '../../src/renderer/history-reader.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { DEFAULT_COLOR } from '../../src/shared/pane-types.js';
import { manyStyles, paintedBytes } from '../helpers/many-styles.js';

const output = (service: PaneService, text: string) => service.onOutput(new TextEncoder().encode(text));

test('a trap inside a batch that holds a query does not feed the rest of the batch twice', async () => {
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 64 * 1024, scrollbackBytes: 2000, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  output(service, 'hello\r\n');
  armEmulatorTrap();
  // The batch is fed in two parts around its DA1 query; the trap hits the first, and the
  // rebuild replays the output ring, which already holds the whole batch.
  output(service, 'AB\x1b[cCD\r\n');
  const grid = service.grid();
  assert.equal(grid.emulatorRebuilds, 1);
  assert.deepEqual(grid.lines.slice(0, 3), ['hello', 'ABCD', '']);
});

test('a history row number names the same line while the full scrollback drops its oldest rows, and across a rebuild', async () => {
  // 40 columns and the smallest scrollback ghostty keeps: two pages of ~1160 rows, the older dropped when a third fills.
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 1 << 20, scrollbackBytes: 2000, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  let written = 0;
  const lines = (count: number) => {
    let text = '';
    for (let i = 0; i < count; i++) text += `line ${++written}\r\n`;
    output(service, text);
  };
  const text = (first: number) => frameLines(service.historySlice(first, 3).frame);
  lines(3000);
  const anchor = service.historySlice(-200, 3);
  const shown = frameLines(anchor.frame);

  lines(600); // the oldest page goes: every row's position moves up
  const after = service.historySlice(anchor.first, 3);
  assert.deepEqual(frameLines(after.frame), shown, 'the same number, the same lines');
  assert.equal(after.first, anchor.first);
  assert.ok(after.dropped >= anchor.dropped + 1000, `a page was dropped (${anchor.dropped} -> ${after.dropped})`);

  armEmulatorTrap(); // the next write traps, and the emulator is rebuilt from the output ring
  lines(10);
  assert.equal(service.grid().emulatorRebuilds, 1);
  assert.deepEqual(text(anchor.first), shown, 'the rebuilt emulator numbers its rows as the old one did');

  lines(5000); // the whole scrollback turns over: the number is gone, and reads from the oldest row kept
  const gone = service.historySlice(anchor.first, 3);
  assert.ok(gone.dropped > anchor.first);
  assert.equal(gone.first, gone.dropped);
  assert.deepEqual(frameLines(gone.frame), text(-gone.total), 'the oldest rows kept');
  assert.match(frameLines(gone.frame)[0], /^line (\d+)$/);
  assert.ok(Number(frameLines(gone.frame)[0].slice(5)) > 5000, 'and they are from the last lines written');
});

test('a resize does not count the reflowed scrollback as dropped: a reader refitted across resizes stays on its lines, with no notice', async () => {
  const init = { paneId: 'p', cols: 80, rows: 20, ringCapacity: 1 << 20, scrollbackBytes: 4 << 20, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  let text = '';
  for (let i = 1; i <= 500; i++) text += `line ${i}\r\n`;
  output(service, text);
  const ask = (reader: HistoryReader) => {
    const { first, count } = reader.request();
    return service.historySlice(first, count);
  };
  const opened = new HistoryReader('p', 20, 3);
  opened.receive(ask(opened));
  opened.scrollBy(-200);
  opened.receive(ask(opened));
  const shown = frameLines(opened.slice!.frame);

  // Each size change (wider, narrower, taller: rows taken back from the scrollback) alone.
  for (const [cols, rows] of [[100, 20], [60, 20], [80, 30]]) {
    service.resize(cols, rows);
    const slice = service.historySlice(opened.topRow!, 20);
    assert.equal(slice.dropped, 0, `nothing was dropped by resizing to ${cols}x${rows}`);
  }
  service.resize(80, 20);

  // Dragging the host terminal's corner: each SIGWINCH resizes the pane, then the renderer refits the
  // reader (ui-controller.refitHistory) and asks again; the answer to one refit reaches the next reader.
  service.resize(79, 20);
  const refitted = new HistoryReader('p', 20, Math.max(1, opened.linesAboveLive));
  const earlierAnswer = ask(refitted);
  service.resize(80, 20);
  const latest = new HistoryReader('p', 20, Math.max(1, refitted.linesAboveLive));
  const latestAnswer = ask(latest);
  latest.receive(earlierAnswer);
  if (latest.receive(latestAnswer)) latest.receive(ask(latest));
  assert.equal(latest.lostNotice, null, 'no line left the scrollback');
  assert.deepEqual(frameLines(latest.slice!.frame), shown, 'the reader still shows the lines it showed');
});

test('a cursor that only moves along its row, or is hidden or shown, and a mode set with nothing drawn, are a new screen version', async () => {
  const init = { paneId: 'p', cols: 40, rows: 8, ringCapacity: 64 * 1024, scrollbackBytes: 2000, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, await loadGhosttyModule(), () => {});
  output(service, 'hello');
  let version = service.version();
  // ghostty's dirty tracking flags none of these: the version must still move, or frames and waiters miss them.
  for (const [sequence, cursor] of [['\b', { x: 4, y: 0, visible: true, textIndex: 4 }], ['\x1b[?25l', { x: 4, y: 0, visible: false, textIndex: 4 }], ['\x1b[?25h', { x: 4, y: 0, visible: true, textIndex: 4 }], ['\x1b[C', { x: 5, y: 0, visible: true, textIndex: 5 }]] as const) {
    output(service, sequence);
    const next = service.version();
    assert.ok(next > version, `${JSON.stringify(sequence)} bumps the version`);
    assert.deepEqual(service.grid().cursor, cursor);
    version = next;
  }
  output(service, '\x1b[1;6H'); // to where the cursor already is
  assert.equal(service.version(), version, 'nothing moved, no new version');
  // Nor does it flag a mode set with nothing drawn, which a frame carries for the host terminal to mirror.
  for (const [sequence, holds] of [
    ['\x1b[?1h', () => service.cells().modes.applicationCursor],
    ['\x1b[?1000h\x1b[?1006h', () => service.cells().mouseTracking && service.cells().modes.mouseSgr],
    ['\x1b[?2004h', () => service.cells().bracketedPaste],
  ] as const) {
    output(service, sequence);
    const next = service.version();
    assert.ok(next > version, `${JSON.stringify(sequence)} bumps the version`);
    assert.ok(holds(), `${JSON.stringify(sequence)} shows in the frame`);
    version = next;
  }
});

test('a compaction that carries the scrollback as plain text keeps the history rows\' numbers', async () => {
  const module = await loadGhosttyModule();
  const size = { cols: 40, rows: 8, scrollbackBytes: 1 << 20 };
  const first = manyStyles(200, 1);
  let rest = '';
  for (let i = 2; i <= 30; i++) rest += manyStyles(200, i);
  // A limit the emulator passes once it has all the output, and under which a fresh one
  // holds the scrollback as plain text but not with its styles (see emulator-compaction.ts).
  const probe = new GhosttyEmulator(module, size);
  probe.write(new TextEncoder().encode(first + rest));
  const limit = paintedBytes(module, size, probe, 'styled') + paintedBytes(module, size, probe, 'plain');
  assert.ok(probe.wasmMemoryBytes() > limit, `the output bloats the emulator past the limit (${probe.wasmMemoryBytes()} against ${limit} bytes)`);
  probe.dispose();

  const init = { paneId: 'p', ...size, ringCapacity: 64 * 1024, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  const service = new PaneService(init, module, () => {}, { compactBytes: limit });
  output(service, first);
  const before = service.historySlice(0, 1);
  assert.ok(before.total > 100, `some scrollback to number (${before.total} rows)`);
  output(service, rest); // compacted as this batch ends
  const after = service.historySlice(0, 100_000);
  const scrollbackCells = (after.total - size.rows) * size.cols;
  let styled = 0;
  for (let cell = 0; cell < scrollbackCells; cell++) if (after.frame.cells[cell * 4 + 1] !== DEFAULT_COLOR) styled++;
  assert.equal(styled, 0, 'the scrollback came through the compaction as plain text');
  // Restyled rows match none seen before; without a rebase every one would count as dropped.
  assert.equal(after.dropped, before.dropped, 'no row counted as dropped by the compaction');
});

test('a batch fed in slices, with pauses between them, ends with the screen of the batch fed whole; a trap mid-batch feeds no slice twice', async () => {
  const module = await loadGhosttyModule();
  const init = { paneId: 'p', cols: 60, rows: 10, ringCapacity: 1 << 20, scrollbackBytes: 100_000, idleThresholdMs: 1000, version: 'test', acks: SharedAcks.allocate() };
  let pauses = 0;
  const gate = { sliceBytes: 1000, pause: () => void pauses++ };
  const sliced = new PaneService(init, module, () => {}, { slices: gate });
  const whole = new PaneService({ ...init, acks: SharedAcks.allocate() }, module, () => {});
  let text = '';
  for (let i = 0; i < 400; i++) text += `\x1b[3${i % 8}mline ${i} é漢\x1b[0m\r\n`;
  const bytes = new TextEncoder().encode(text);
  sliced.onOutput(bytes);
  whole.onOutput(bytes);
  assert.equal(pauses, Math.ceil(bytes.length / gate.sliceBytes) - 1, 'a pause between every two slices');
  assert.deepEqual(sliced.grid(undefined, true).lines, whole.grid(undefined, true).lines);
  assert.deepEqual(frameLines(sliced.historySlice(-300, 20).frame), frameLines(whole.historySlice(-300, 20).frame), 'the scrollback too');

  let pausesBeforeTrap = 0;
  const trapping = new PaneService({ ...init, acks: SharedAcks.allocate() }, module, () => {}, {
    slices: {
      sliceBytes: 8,
      pause: () => {
        // The trap hits the slice after the first pause; the rebuild replays the ring, which holds the whole batch.
        if (++pausesBeforeTrap === 1) armEmulatorTrap();
      },
    },
  });
  trapping.onOutput(new TextEncoder().encode('first\r\nsecond line\r\nthird\r\n'));
  const grid = trapping.grid();
  assert.equal(grid.emulatorRebuilds, 1);
  assert.deepEqual(grid.lines.slice(0, 4), ['first', 'second line', 'third', '']);
  assert.equal(pausesBeforeTrap, 1, 'nothing fed after the rebuild');
});
