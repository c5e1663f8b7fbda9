/**
 * Draws the scratchpad reader over the main area: a header naming the file
 * and where the view is in it, then as much of the wrapped text as fits.
 */
import type { CellBuffer } from './cell-buffer.js';
import type { Rect } from './layout.js';
import type { ScratchpadViewer } from './scratchpad-viewer.js';
import { textWidth, truncate } from './text-width.js';
import { THEME } from './theme.js';

/** The header row above the text. */
export const VIEWER_HEADER_ROWS = 1;
export const VIEWER_HINT = '↑↓ PgUp PgDn Home End scroll · Esc closes';

/** `text` is the scratchpad's content, or null until it has been read (or when it is gone). */
export function drawScratchpadViewer(buffer: CellBuffer, area: Rect, viewer: ScratchpadViewer, text: string | null, exists: boolean): void {
  buffer.fill(area);
  const bodyRows = Math.max(0, area.rows - VIEWER_HEADER_ROWS);
  const lines = text === null ? [] : viewer.lines(text, area.cols);
  viewer.fitTo(lines.length, bodyRows);
  const first = viewer.scroll;
  const last = Math.min(lines.length, first + bodyRows);
  const where = lines.length === 0 ? '' : `  lines ${first + 1}–${last} of ${lines.length}`;
  const header = { x: area.x, y: area.y, cols: area.cols, rows: 1 };
  buffer.fill(header, THEME.statusBar);
  const hint = ` ${VIEWER_HINT} `;
  const hintX = area.x + area.cols - textWidth(hint);
  const titleEnd = buffer.text(area.x, area.y, truncate(` ${viewer.name}${where} `, Math.max(0, hintX - area.x - 1)), THEME.statusBar);
  if (hintX > titleEnd) buffer.text(hintX, area.y, hint, THEME.statusBar);

  const bodyY = area.y + VIEWER_HEADER_ROWS;
  if (!exists || text === null) {
    const note = exists ? 'Loading…' : `${viewer.name} no longer exists.`;
    buffer.text(area.x + 1, bodyY, truncate(note, area.cols - 1), THEME.dim);
    return;
  }
  for (let row = 0; row < last - first; row++) {
    const line = lines[first + row];
    buffer.text(area.x, bodyY + row, line.text, line.heading ? THEME.bold : THEME.text, area.x + area.cols);
  }
}
