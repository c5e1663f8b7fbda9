/**
 * The status line's count of this run's warnings, and patterm's log in the
 * history reader: the renderer asks the bridge for the log's rows as it asks
 * for a pane's, and keeps the reader open however short the log and
 * whichever pane the model brings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RendererApp } from '../../src/renderer/renderer-app.js';
import { CellBuffer, WORDS_PER_CELL } from '../../src/renderer/cell-buffer.js';
import { Compositor } from '../../src/renderer/compositor.js';
import { WarningCounter } from '../../src/node/warning-counter.js';
import { LOG_READER_ID, type BridgeCommand, type FromRendererMessage, type UiModel } from '../../src/shared/renderer-protocol.js';
import { DEFAULT_COLOR, type HistorySlice } from '../../src/shared/pane-types.js';
import { computeLayout } from '../../src/renderer/layout.js';

const [COLS, ROWS] = [100, 20];

function renderer(counter: WarningCounter | null = null): { app: RendererApp; commands: BridgeCommand[] } {
  const commands: BridgeCommand[] = [];
  const post = (message: FromRendererMessage) => {
    if (message.t === 'command') commands.push(message.command);
  };
  const app = new RendererApp(COLS, ROWS, () => undefined, post, false, null, counter);
  app.start();
  app.onMessage({ t: 'model', model: { sessions: [], panes: {}, presets: [], scratchpads: [], worktrees: [] } });
  return { app, commands };
}

function screen(app: RendererApp): string[] {
  const buffer = new CellBuffer(COLS, ROWS);
  new Compositor(COLS, ROWS).compose(buffer, app.state, app.controller.palette);
  const lines: string[] = [];
  for (let y = 0; y < ROWS; y++) {
    let line = '';
    for (let x = 0; x < COLS; x++) line += String.fromCodePoint(buffer.cells[(y * COLS + x) * WORDS_PER_CELL] || 32);
    lines.push(line.trimEnd());
  }
  return lines;
}

function logSlice(lines: string[]): HistorySlice {
  const cols = computeLayout(COLS, ROWS).main.cols;
  const cells = new Uint32Array(lines.length * cols * 4);
  lines.forEach((line, y) => [...line].forEach((char, x) => cells.set([char.codePointAt(0)!, DEFAULT_COLOR, DEFAULT_COLOR, 1 << 8], (y * cols + x) * 4)));
  const frame = { rows: lines.length, cols, cells, graphemes: {}, cursor: { x: 0, y: 0, visible: false }, activeScreen: 'primary' as const, screenVersion: 0, bracketedPaste: false, mouseTracking: false, modes: { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false } };
  return { frame, first: 0, total: lines.length, dropped: 0 };
}

test('the status line counts the warnings any thread logs, and shows none while there are none', async () => {
  const counter = new WarningCounter();
  const { app } = renderer(counter);
  try {
    assert.doesNotMatch(screen(app).at(-1)!, /warning/);
    const changed = new Promise<void>((resolve) => counter.watch(() => resolve()));
    counter.add();
    await changed;
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(screen(app).at(-1)!, /⚠ 1 warning {2}Ctrl-K command palette$/);
    counter.add();
    counter.add();
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(screen(app).at(-1)!, /⚠ 3 warnings /);
  } finally {
    app.stop();
  }
});

test("the palette's log entry asks for the log's last rows and shows them, even on the empty canvas", () => {
  const { app, commands } = renderer();
  try {
    assert.equal(app.controller.runCommand('patterm.log.open'), true);
    const main = computeLayout(COLS, ROWS).main;
    assert.deepEqual(commands.at(-1), { kind: 'history', paneId: LOG_READER_ID, first: -main.rows, count: main.rows });
    app.onMessage({ t: 'history', paneId: LOG_READER_ID, slice: logSlice(['/state/patterm/logs/run.log', '2030-01-01T00:00:00.000Z warn [thread 0] lost']) });
    assert.ok(app.state.history?.isLog, 'a log shorter than the screen stays open');
    const shown = screen(app);
    assert.match(shown[main.y + 1], /warn \[thread 0\] lost/);
    assert.match(shown[main.y], /patterm's log · \/ finds · Esc closes/);

    // A pane arriving does not take the reader away: the user opened the log to read it.
    const pane = { id: 'p1', sessionId: 'p1', parentId: null, name: 'bash', kind: 'process' as const, status: 'running' as const, exitCode: null, signal: null, owner: 'user' as const, title: '' };
    const model: UiModel = { sessions: [{ id: 'p1', name: 'bash', rootId: 'p1', childIds: [] }], panes: { p1: pane }, presets: [], scratchpads: [], worktrees: [] };
    app.state.applyModel(model);
    assert.ok(app.state.history?.isLog);
    app.controller.closeHistory();
    assert.equal(app.state.history, null);
  } finally {
    app.stop();
  }
});
