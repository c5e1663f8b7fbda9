/**
 * The right rail: the active session's tree on top; the scratchpad
 * list and a preview of the shown scratchpad below.
 */
import type { CellBuffer } from './cell-buffer.js';
import type { HitRegions } from './hit-regions.js';
import type { Rect } from './layout.js';
import { flattenTree, sessionTree, treeWindow, type TreeRow } from './session-tree.js';
import { fit, textWidth, truncate } from './text-width.js';
import { BELL_GLYPH, ROOT_GLYPH, shellNote, statusGlyph, THEME } from './theme.js';
import type { UiState } from './ui-state.js';

/** The tree gets the top half of the rail; scratchpads the rest. */
const TREE_SHARE = 0.5;
/** Rows under a heading: the heading itself and its rule. */
const HEADING_ROWS = 2;
/** Fewest preview lines worth drawing a box for. */
const MIN_PREVIEW_LINES = 2;
/** At most this many scratchpad names before the preview; the rest scroll off, behind "… N above" / "… N more". */
const MAX_LISTED_SCRATCHPADS = 8;
/** The preview shows a rail's worth of text; splitting the whole file every frame would be waste. */
const PREVIEW_CHARS = 8 * 1024;

export function drawRail(buffer: CellBuffer, rect: Rect, state: UiState, hits: HitRegions): void {
  buffer.fill(rect);
  // The blank canvas shows nothing here until the first preset runs: the empty state is one hint.
  if (state.isEmpty) return;
  const treeRows = Math.max(HEADING_ROWS + 1, Math.floor(rect.rows * TREE_SHARE));
  drawTree(buffer, { ...rect, rows: treeRows }, state, hits);
  drawScratchpads(buffer, { ...rect, y: rect.y + treeRows, rows: rect.rows - treeRows }, state, hits);
}

function heading(buffer: CellBuffer, rect: Rect, title: string): void {
  buffer.text(rect.x + 1, rect.y, title, THEME.bold, rect.x + rect.cols);
  buffer.repeat(rect.x + 1, rect.y + 1, '─', Math.min(textWidth(title), rect.cols - 1), THEME.divider);
}

function drawTree(buffer: CellBuffer, rect: Rect, state: UiState, hits: HitRegions): void {
  heading(buffer, rect, 'Session tree');
  const session = state.activeSession();
  if (!session) return;
  const rows = flattenTree(sessionTree(session));
  const focusedIndex = rows.findIndex((row) => row.paneId === state.focusedPaneId());
  const view = treeWindow(rows.length, focusedIndex, rect.rows - HEADING_ROWS);
  let y = rect.y + HEADING_ROWS;
  if (view.above > 0) drawHiddenMarker(buffer, rect, y++, `… ${view.above} above`, rows.slice(0, view.first), state);
  for (const row of rows.slice(view.first, view.first + view.count)) drawTreeRow(buffer, rect, y++, row, state, hits);
  if (view.below > 0) drawHiddenMarker(buffer, rect, y, `… ${view.below} more`, rows.slice(view.first + view.count), state);
}

function drawTreeRow(buffer: CellBuffer, rect: Rect, y: number, row: TreeRow, state: UiState, hits: HitRegions): void {
  const pane = state.pane(row.paneId);
  if (!pane) return;
  const glyph = row.depth === 0 ? ROOT_GLYPH : statusGlyph(pane);
  const rootStatus = row.depth === 0 && (pane.status !== 'running' || pane.waitingForAnswer) ? ` ${statusGlyph(pane)}` : '';
  const exitNote = pane.status === 'running' ? '' : pane.signal ? ` ${pane.signal}` : pane.exitCode ? ` exit ${pane.exitCode}` : '';
  const wants = state.attention.has(pane.id);
  const bell = state.bells.has(pane.id) ? ` ${BELL_GLYPH}` : '';
  const command = pane.status === 'running' ? shellNote(pane.shell) : '';
  const label = `${row.prefix}${glyph} ${pane.name}${rootStatus}${command}${bell}`;
  const width = rect.cols - 1;
  const focused = pane.id === state.focusedPaneId();
  const style = wants && state.blinkOn ? THEME.attention : focused ? THEME.selected : THEME.text;
  const x = rect.x + 1;
  const end = buffer.text(x, y, fit(label + (wants ? ' !' : ''), width), style);
  let used = textWidth(label);
  if (exitNote && used + textWidth(exitNote) < width) {
    buffer.text(x + used, y, exitNote, focused ? THEME.selected : THEME.dim);
    used += textWidth(exitNote);
  }
  // Its worktree's branch (shortened first when the rail is narrow) and how many files are changed there.
  const changes = pane.worktree && pane.worktree.changes > 0 ? ` ±${pane.worktree.changes}` : '';
  if (pane.worktree && !wants && used + textWidth(changes) + 4 < width) {
    const branch = truncate(` ⎇ ${pane.worktree.branch}`, width - used - textWidth(changes));
    buffer.text(x + used, y, branch + changes, focused ? THEME.selected : THEME.dim);
  }
  hits.add({ x: rect.x, y, cols: end - rect.x, rows: 1 }, { kind: 'tree', paneId: pane.id });
}

/** "… N above" / "… N more", carrying the attention and bell marks of the rows it stands for. */
function drawHiddenMarker(buffer: CellBuffer, rect: Rect, y: number, text: string, hidden: TreeRow[], state: UiState): void {
  const wants = hidden.some((row) => state.attention.has(row.paneId));
  const bell = hidden.some((row) => state.bells.has(row.paneId));
  const label = `${text}${bell ? ` ${BELL_GLYPH}` : ''}${wants ? ' !' : ''}`;
  buffer.text(rect.x + 1, y, fit(label, rect.cols - 1), wants && state.blinkOn ? THEME.attention : THEME.dim);
}

function drawScratchpads(buffer: CellBuffer, rect: Rect, state: UiState, hits: HitRegions): void {
  if (rect.rows < HEADING_ROWS + 1) return;
  heading(buffer, rect, 'Scratchpads');
  const pads = [...state.model.scratchpads].sort((a, b) => a.name.localeCompare(b.name));
  const shown = state.shownScratchpad();
  let y = rect.y + HEADING_ROWS;
  const bottom = rect.y + rect.rows;
  // Scrolled like the session tree, so the scratchpad being previewed or read is always one of the names listed.
  const view = treeWindow(pads.length, pads.findIndex((pad) => pad.name === shown), MAX_LISTED_SCRATCHPADS + 1);
  if (view.above > 0 && y < bottom) buffer.text(rect.x + 1, y++, `… ${view.above} above`, THEME.dim);
  for (const pad of pads.slice(view.first, view.first + view.count)) {
    if (y >= bottom) return;
    const style = pad.name === shown ? THEME.bold : THEME.text;
    buffer.text(rect.x + 1, y, truncate(pad.name, rect.cols - 2), style);
    hits.add({ x: rect.x, y, cols: rect.cols, rows: 1 }, { kind: 'scratchpad', name: pad.name });
    y++;
  }
  if (view.below > 0 && y < bottom) buffer.text(rect.x + 1, y++, `… ${view.below} more`, THEME.dim);
  const preview = state.preview && state.preview.name === shown ? state.preview : null;
  const boxRows = bottom - y - 1;
  if (!preview || boxRows < MIN_PREVIEW_LINES + 2) return;
  drawPreviewBox(buffer, { x: rect.x + 1, y: y + 1, cols: rect.cols - 2, rows: boxRows }, preview.name, preview.text);
}

function drawPreviewBox(buffer: CellBuffer, rect: Rect, name: string, text: string): void {
  const inner = rect.cols - 2;
  if (inner < 4) return;
  const right = rect.x + rect.cols - 1;
  buffer.text(rect.x, rect.y, '┌' + '─'.repeat(inner) + '┐', THEME.divider);
  buffer.text(rect.x + 1, rect.y, truncate(` ${name} `, inner), THEME.bold);
  const lines = text.slice(0, PREVIEW_CHARS).replace(/\r/g, '').split('\n');
  for (let row = 1; row < rect.rows - 1; row++) {
    buffer.text(rect.x, rect.y + row, '│', THEME.divider);
    buffer.text(rect.x + 1, rect.y + row, fit(lines[row - 1]?.replace(/\t/g, '  ') ?? '', inner));
    buffer.text(right, rect.y + row, '│', THEME.divider);
  }
  buffer.text(rect.x, rect.y + rect.rows - 1, '└' + '─'.repeat(inner) + '┘', THEME.divider);
}
