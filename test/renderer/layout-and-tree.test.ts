/** Layout arithmetic, the tree's shape, and mouse re-encoding for panes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, paneSizeFor } from '../../src/renderer/layout.js';
import { flattenTree } from '../../src/renderer/session-tree.js';
import { encodeMouseForPane } from '../../src/renderer/mouse-encoding.js';
import type { CellFrame } from '../../src/shared/pane-types.js';

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
