/** Layout arithmetic, the tree's shape, and mouse re-encoding for panes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, paneSizeFor } from '../../src/renderer/layout.js';
import { flattenTree, treeWindow } from '../../src/renderer/session-tree.js';
import { CellBuffer, WORDS_PER_CELL } from '../../src/renderer/cell-buffer.js';
import { Compositor } from '../../src/renderer/compositor.js';
import { UiState } from '../../src/renderer/ui-state.js';
import type { UiModel, UiPane } from '../../src/shared/renderer-protocol.js';
import { encodeMouseForPane } from '../../src/renderer/mouse-encoding.js';
import type { CellFrame } from '../../src/shared/pane-types.js';
import { NEEDS_YOU_GLYPH, shellNote } from '../../src/renderer/theme.js';

/**
 * The screen's rows as text, trimmed (a wide glyph's second cell reads as a space), and
 * the rail's, for a 120x30 screen showing one session whose root is "root" and whose
 * children are `children`.
 */
function drawnScreen(children: UiPane[], prepare: (state: UiState) => void): { screen: string[]; rail: string[] } {
  const root: UiPane = { id: 'root', sessionId: 'root', parentId: null, name: 'root', kind: 'agent', status: 'running', exitCode: null, signal: null, owner: 'user', title: '' };
  const model: UiModel = {
    sessions: [{ id: 'root', name: 'lead', rootId: 'root', childIds: children.map((child) => child.id) }],
    panes: Object.fromEntries([root, ...children].map((pane) => [pane.id, pane])),
    presets: [],
    scratchpads: [],
    worktrees: [],
  };
  const [cols, rows] = [120, 30];
  const state = new UiState(cols, rows);
  state.applyModel(model);
  prepare(state);
  const buffer = new CellBuffer(cols, rows);
  const compositor = new Compositor(cols, rows);
  compositor.compose(buffer, state, null);
  const rail = compositor.layout.rail!;
  const text = (y: number, from: number, to: number) => {
    let line = '';
    for (let x = from; x < to; x++) line += String.fromCodePoint(buffer.cells[(y * cols + x) * WORDS_PER_CELL] || 32);
    return line.trim();
  };
  return {
    screen: Array.from({ length: rows }, (_, y) => text(y, 0, cols)),
    rail: Array.from({ length: rail.rows }, (_, row) => text(rail.y + row, rail.x, rail.x + rail.cols)),
  };
}

/** A running child of the session "root". */
const child = (id: string, fields: Partial<UiPane> = {}): UiPane => ({ id, sessionId: 'root', parentId: 'root', name: id, kind: 'process', status: 'running', exitCode: null, signal: null, owner: 'user', title: '', ...fields });

test('layout: tab bar over the main area, the rail on the right, the status line at the bottom', () => {
  const layout = computeLayout(120, 40);
  assert.deepEqual(layout.main, { x: 0, y: 1, cols: 89, rows: 38 });
  assert.deepEqual(layout.rail, { x: 90, y: 0, cols: 30, rows: 39 });
  assert.deepEqual(layout.status, { x: 0, y: 39, cols: 120, rows: 1 });
  assert.deepEqual(paneSizeFor(50, 20), { cols: 50, rows: 18 }, 'a narrow terminal hides the rail');
  assert.equal(computeLayout(400, 100).rail!.cols, 36, 'the rail stops growing');
});

test('the tree renderer is tree-shaped: deeper levels get continuation lines', () => {
  const rows = flattenTree({
    paneId: 'root',
    children: [
      { paneId: 'a', children: [{ paneId: 'a1', children: [] }, { paneId: 'a2', children: [] }] },
      { paneId: 'b', children: [{ paneId: 'b1', children: [] }] },
    ],
  });
  assert.deepEqual(
    rows.map((row) => `${row.prefix}${row.paneId}`),
    ['root', '├─ a', '│  ├─ a1', '│  └─ a2', '└─ b', '   └─ b1'],
  );
});

test('mouse reports are re-encoded in the mode the program asked for, in its own coordinates', () => {
  const modes = (overrides: Partial<CellFrame['modes']>): CellFrame['modes'] => ({
    applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false, ...overrides,
  });
  const press = { code: 0, x: 50, y: 20, release: false };
  assert.equal(encodeMouseForPane(press, 4, 2, modes({})), null, 'no tracking, nothing sent');
  assert.equal(encodeMouseForPane(press, 4, 2, modes({ mouseX10: true, mouseSgr: true })), '\x1b[<0;5;3M');
  assert.equal(encodeMouseForPane({ ...press, release: true }, 4, 2, modes({ mouseX10: true })), '\x1b[M#%#', 'legacy release is button 3');
  const drag = { code: 32, x: 1, y: 1, release: false };
  assert.equal(encodeMouseForPane(drag, 0, 0, modes({ mouseX10: true })), null, 'motion needs 1002 or 1003');
  assert.equal(encodeMouseForPane(drag, 0, 0, modes({ mouseButtonEvent: true, mouseSgr: true })), '\x1b[<32;1;1M');
  assert.equal(encodeMouseForPane({ code: 35, x: 1, y: 1, release: false }, 0, 0, modes({ mouseButtonEvent: true })), null, 'plain motion needs 1003');
});

test('a tree taller than its space keeps the focused row and says how many rows it hides on each side', () => {
  assert.deepEqual(treeWindow(5, 4, 8), { first: 0, count: 5, above: 0, below: 0 }, 'fits: everything');
  assert.deepEqual(treeWindow(21, 0, 8), { first: 0, count: 7, above: 0, below: 14 }, 'at the top: one marker, below');
  assert.deepEqual(treeWindow(21, 10, 8), { first: 5, count: 6, above: 5, below: 10 }, 'in the middle: both markers, focus at the bottom');
  assert.deepEqual(treeWindow(21, 20, 8), { first: 14, count: 7, above: 14, below: 0 }, 'at the end: one marker, above');
  assert.deepEqual(treeWindow(21, 10, 2), { first: 9, count: 2, above: 0, below: 0 }, 'no room for markers: the focused row still shows');
  for (let focused = 0; focused < 21; focused++) {
    const view = treeWindow(21, focused, 8);
    assert.ok(focused >= view.first && focused < view.first + view.count, `row ${focused} is shown`);
    assert.equal(view.count + (view.above > 0 ? 1 : 0) + (view.below > 0 ? 1 : 0), 8, 'the window fills its space exactly');
    assert.equal(view.above + view.count + view.below, 21, 'every row is shown or counted');
  }
});

test('the sidebar of a session with forty children shows the focused child between "… N above" and "… N more"', () => {
  const children = Array.from({ length: 40 }, (_, i) => child(`child-${i + 1}`));
  const lines = drawnScreen(children, (state) => {
    state.focus('child-20');
    state.bells.add('child-40');
  }).rail;
  const tree = lines.slice(0, lines.indexOf('Scratchpads'));
  const aboveAt = tree.findIndex((line) => /^… \d+ above$/.test(line));
  const moreAt = tree.findIndex((line) => /^… \d+ more/.test(line));
  assert.ok(aboveAt > 0 && moreAt > aboveAt, `both markers in the tree:\n${tree.join('\n')}`);
  const shown = tree.slice(aboveAt + 1, moreAt).map((line) => line.replace(/^[├└│─ ]*\S+ /, ''));
  assert.equal(shown.at(-1), 'child-20', 'the focused child is shown, at the bottom of the window');
  const above = Number(/\d+/.exec(tree[aboveAt])![0]);
  const more = Number(/\d+/.exec(tree[moreAt])![0]);
  assert.equal(above + shown.length + more, 41, 'the root and 40 children are all shown or counted');
  assert.match(tree[moreAt], /🔔|\u{1F514}/u, 'a bell in a hidden child shows on the marker');
});

test('a child waiting for an answer (permission dialog or question) shows the "needs you" glyph, a working one the running glyph', () => {
  const children = [child('asking', { kind: 'agent', waitingForAnswer: true }), child('working', { kind: 'agent', waitingForAnswer: false })];
  const drawn = drawnScreen(children, (state) => state.focus('root'));
  const railText = drawn.rail.join('\n');
  assert.match(railText, new RegExp(`${NEEDS_YOU_GLYPH}\\s*asking`), railText);
  assert.match(railText, /◉ working/, railText);
  assert.doesNotMatch(railText, new RegExp(`${NEEDS_YOU_GLYPH}\\s*working`));
  assert.match(drawn.screen[0], new RegExp(`^lead ${NEEDS_YOU_GLYPH}`), 'the session\'s tab says so too');
});

test("a shell pane's tree entry: its command running, or how the last one ended", () => {
  assert.equal(shellNote(undefined), '');
  assert.equal(shellNote({ running: false, lastExitCode: null }), '', 'nothing before the first command');
  assert.equal(shellNote({ running: true, lastExitCode: 1 }), ' ⋯');
  assert.equal(shellNote({ running: false, lastExitCode: 0 }), ' ✓');
  assert.equal(shellNote({ running: false, lastExitCode: 130 }), ' ✗ 130');
});
