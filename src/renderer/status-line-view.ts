/**
 * The status line: who drives the focused pane on the left, then any notice
 * or attention request; on the right, the warnings patterm logged in this run
 * (a reason to open its log), then the palette hint.
 */
import type { CellBuffer, Style } from './cell-buffer.js';
import type { Rect } from './layout.js';
import { textWidth, truncate } from './text-width.js';
import { THEME } from './theme.js';
import type { UiState } from './ui-state.js';

export const PALETTE_HINT = 'Ctrl-K command palette';
const PALETTE_OPEN_HINT = 'Enter runs · Esc closes · Ctrl-K again sends Ctrl-K';

/** The count of this run's warnings, as the status line shows it; empty when there are none. */
export function warningsLabel(count: number): string {
  return count > 0 ? ` ⚠ ${count} warning${count === 1 ? '' : 's'} ` : '';
}

export function drawStatusLine(buffer: CellBuffer, rect: Rect, state: UiState, paletteOpen: boolean): void {
  buffer.fill(rect, THEME.statusBar);
  const hint = ` ${paletteOpen ? PALETTE_OPEN_HINT : PALETTE_HINT} `;
  const hintX = rect.x + rect.cols - textWidth(hint);
  const warnings = warningsLabel(state.warnings);
  const warningsX = hintX - textWidth(warnings);
  const limit = Math.max(rect.x, warningsX - 1);
  let x = rect.x;
  const put = (text: string, style: Style) => {
    if (x >= limit) return;
    x = buffer.text(x, rect.y, truncate(text, limit - x), style, limit) + 1;
  };

  const pane = state.focusedPane();
  if (pane) {
    if (pane.status !== 'running') {
      const how = pane.signal ? `killed (${pane.signal})` : `exited ${pane.exitCode ?? ''}`.trim();
      put(` ${pane.name} ${how} · Ctrl-D closes it `, THEME.exited);
    } else if (pane.owner === 'user') {
      put(' you have control ', THEME.ownerUser);
    } else {
      put(' orchestrator driving ', THEME.ownerOrchestrator);
    }
  }
  const notice = state.notice && state.notice.until > performance.now() ? state.notice : null;
  if (notice) put(` ${notice.text} `, THEME.notice[notice.level]);
  for (const [paneId, attention] of state.attention) {
    const name = state.pane(paneId)?.name ?? paneId;
    put(` ⚑ ${name} needs you: ${attention.reason} `, state.blinkOn ? THEME.attention : THEME.notice.warning);
  }
  if (warnings && warningsX > rect.x) buffer.text(warningsX, rect.y, warnings, THEME.notice.warning);
  if (hintX > rect.x) buffer.text(hintX, rect.y, hint, THEME.statusBar);
}
