/**
 * Draws the history reader over the main area: the rows the worker sent, the
 * last search match highlighted, and in the top-right corner how far back
 * they are and how to get back, as tmux's copy mode marks its position.
 */
import { findInFrameRow } from '../shared/frame-text.js';
import type { CellBuffer } from './cell-buffer.js';
import type { HistoryReader } from './history-reader.js';
import type { Rect } from './layout.js';
import { textWidth } from './text-width.js';
import { THEME } from './theme.js';

export const HISTORY_HINT = '/ finds · Esc or End: back to live';
export const LOG_HINT = "patterm's log · / finds · Esc closes";

export function drawHistoryReader(buffer: CellBuffer, area: Rect, reader: HistoryReader): void {
  if (reader.slice) {
    buffer.blit(reader.slice.frame, area);
    highlightMatch(buffer, area, reader);
  }
  // Until the first rows arrive the live screen shows under the marker, so the marker says so.
  const up = reader.slice ? reader.linesAboveLive : 0;
  const label = reader.searchInput !== null ? ` search back: ${reader.searchInput}▏ (Enter finds, Esc cancels) ` : ` ↑ ${up} line${up === 1 ? '' : 's'} back · ${reader.isLog ? LOG_HINT : HISTORY_HINT} `;
  const x = Math.max(area.x, area.x + area.cols - textWidth(label));
  buffer.text(x, area.y, label, THEME.statusBar, area.x + area.cols);
}

/** The text the last search found, in the search colours, while its row is in view. */
function highlightMatch(buffer: CellBuffer, area: Rect, reader: HistoryReader): void {
  const { slice, lastMatch, lastSearch } = reader;
  if (!slice || lastMatch === null || lastSearch === null) return;
  const row = lastMatch - slice.first;
  const found = findInFrameRow(slice.frame, row, lastSearch);
  if (found) buffer.restyle({ x: area.x + found.col, y: area.y + row, cols: found.cols, rows: 1 }, () => THEME.searchMatch);
}
