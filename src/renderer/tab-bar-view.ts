/** The top tab bar: one tab per session, then "+" to spawn. */
import type { CellBuffer } from './cell-buffer.js';
import type { HitRegions } from './hit-regions.js';
import type { Rect } from './layout.js';
import { textWidth, truncate } from './text-width.js';
import { BELL_GLYPH, NEEDS_YOU_GLYPH, statusGlyph, THEME } from './theme.js';
import type { UiState } from './ui-state.js';

const ADD_LABEL = ' + ';
/** A tab name longer than this is cut, so a long name cannot push every other tab away. */
const MAX_TAB_NAME_COLS = 24;
/** Width of the "‹" and "›" that mark tabs scrolled out of the strip. */
const MARKER_COLS = 1;

export function drawTabBar(buffer: CellBuffer, rect: Rect, state: UiState, hits: HitRegions): void {
  buffer.fill(rect);
  if (state.isEmpty) {
    // The empty canvas has no tabs; "+" is still there to click.
    drawAdd(buffer, rect, rect.x, hits);
    return;
  }
  const tabs = state.model.sessions.map((session) => {
    const root = state.pane(session.rootId);
    const mark = root && root.status !== 'running' ? ` ${statusGlyph(root)}` : '';
    const wants = state.sessionPaneIds(session).some((id) => state.attention.has(id)) ? ' !' : '';
    const bell = state.sessionPaneIds(session).some((id) => state.bells.has(id)) ? ` ${BELL_GLYPH}` : '';
    // A background session whose agent waits on a dialog needs the user as much as the one shown.
    const asking = !mark && state.sessionPaneIds(session).some((id) => state.pane(id)?.waitingForAnswer && state.pane(id)?.status === 'running') ? ` ${NEEDS_YOU_GLYPH}` : '';
    const label = ` ${truncate(session.name, MAX_TAB_NAME_COLS)}${mark}${asking}${wants}${bell} `;
    return { session, label, width: textWidth(label) };
  });
  const available = rect.cols - ADD_LABEL.length;
  const widths = tabs.map((tab) => tab.width);
  const active = Math.max(0, tabs.findIndex((tab) => tab.session.id === state.activeSessionId));
  // Scroll the strip just enough that the active tab is whole.
  let first = 0;
  while (first < active && lastVisible(widths, first, available) < active) first++;
  const last = Math.max(first, lastVisible(widths, first, available));
  let x = rect.x;
  if (first > 0) x = buffer.text(x, rect.y, '‹', THEME.dim);
  for (let i = first; i <= last; i++) {
    if (i > first) x++; // the gap between tabs
    const tab = tabs[i];
    const style = tab.session.id === state.activeSessionId ? THEME.tabActive : THEME.tab;
    const end = buffer.text(x, rect.y, tab.label, style, rect.x + available);
    hits.add({ x, y: rect.y, cols: end - x, rows: 1 }, { kind: 'tab', sessionId: tab.session.id });
    x = end;
  }
  // Tabs hidden to the right are marked right after the last one shown; " + " brings its own space.
  if (last < tabs.length - 1) x = buffer.text(x, rect.y, '›', THEME.dim);
  else x++;
  drawAdd(buffer, rect, Math.min(x, rect.x + available), hits);
}

/**
 * The last tab that fits when the strip starts at `first`: after a "‹" when
 * tabs are hidden to the left, with a gap between tabs, and keeping a column
 * for "›" while more tabs follow.
 */
function lastVisible(widths: number[], first: number, available: number): number {
  let x = first > 0 ? MARKER_COLS : 0;
  let last = first - 1;
  for (let i = first; i < widths.length; i++) {
    const end = x + (i > first ? 1 : 0) + widths[i];
    if (end + (i < widths.length - 1 ? MARKER_COLS : 0) > available) break;
    x = end;
    last = i;
  }
  return last;
}

function drawAdd(buffer: CellBuffer, rect: Rect, x: number, hits: HitRegions): void {
  const end = buffer.text(x, rect.y, ADD_LABEL, THEME.tabAdd, rect.x + rect.cols);
  hits.add({ x, y: rect.y, cols: end - x, rows: 1 }, { kind: 'spawn' });
}
