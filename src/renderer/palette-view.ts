/**
 * Draws the command palette over the main area: title, query line, then the
 * matching entries with matched characters marked and disabled presets shown
 * with their error.
 */
import type { CellBuffer } from './cell-buffer.js';
import type { HitRegions } from './hit-regions.js';
import type { Rect } from './layout.js';
import type { Palette } from './palette.js';
import { graphemes, textWidth, truncate, truncateStart } from './text-width.js';
import { THEME } from './theme.js';

/** Wide enough for "Spawn agent in <session>: <preset>" plus a key hint. */
const MAX_WIDTH = 76;
const MAX_ITEMS = 14;
/** Rows of frame around the list: top border, title+query row, rule, bottom border. */
const CHROME_ROWS = 4;

export interface PaletteDrawing {
  /** Where the caret goes (the end of the query). */
  caret: { x: number; y: number };
}

export function drawPalette(buffer: CellBuffer, area: Rect, palette: Palette, hits: HitRegions): PaletteDrawing {
  const width = Math.max(20, Math.min(MAX_WIDTH, area.cols - 4));
  const inner = width - 2;
  const x = area.x + Math.max(0, Math.floor((area.cols - width) / 2));
  const y = area.y + (area.rows > 12 ? 1 : 0);
  const view = palette.view;
  const visible = palette.visible();
  const maxItems = Math.max(1, Math.min(MAX_ITEMS, area.rows - CHROME_ROWS - 1));
  const listRows = view.kind === 'list' ? Math.max(1, Math.min(maxItems, visible.length)) : 1;
  const rows = CHROME_ROWS + listRows;
  const box: Rect = { x, y, cols: width, rows };
  buffer.fill(box);
  hits.add(box, { kind: 'palette' });

  buffer.text(x, y, '╭' + '─'.repeat(inner) + '╮', THEME.paletteBorder);
  buffer.text(x + 2, y, truncate(` ${view.title} `, inner - 2), THEME.bold);
  for (let row = 1; row < rows - 1; row++) {
    buffer.text(x, y + row, '│', THEME.paletteBorder);
    buffer.text(x + width - 1, y + row, '│', THEME.paletteBorder);
  }
  buffer.text(x, y + rows - 1, '╰' + '─'.repeat(inner) + '╯', THEME.paletteBorder);

  // Query line: a prompt keeps only its last line visible, with newlines shown as ⏎.
  const queryY = y + 1;
  const shownQuery = palette.query.replace(/\n/g, '⏎');
  const room = inner - 3;
  const tail = truncateStart(shownQuery, room);
  const caretX = buffer.text(x + 1, queryY, '› ', THEME.paletteBorder);
  let end = buffer.text(caretX, queryY, tail, THEME.text, x + width - 1);
  if (palette.query === '' && view.placeholder) buffer.text(caretX, queryY, truncate(view.placeholder, room), THEME.dim);
  end = Math.min(end, x + width - 2);
  buffer.text(x + 1, queryY + 1, '─'.repeat(inner), THEME.divider);

  const listY = queryY + 2;
  if (view.kind === 'text') {
    buffer.text(x + 2, listY, truncate('Enter to confirm · Esc to cancel', inner - 2), THEME.dim);
    return { caret: { x: end, y: queryY } };
  }
  if (visible.length === 0) {
    buffer.text(x + 2, listY, 'No matching commands', THEME.dim);
    return { caret: { x: end, y: queryY } };
  }
  const selected = palette.selected;
  const first = Math.max(0, Math.min(selected - listRows + 1, visible.length - listRows));
  visible.slice(first, first + listRows).forEach(({ item, match }, offset) => {
    const index = first + offset;
    const rowY = listY + offset;
    const rowRect = { x: x + 1, y: rowY, cols: inner, rows: 1 };
    const isSelected = index === selected;
    const base = item.disabledReason ? THEME.disabled : THEME.text;
    const detail = item.detail ? truncate(item.detail, Math.max(0, Math.floor(inner / 2))) : '';
    const labelRoom = inner - 2 - (detail ? textWidth(detail) + 2 : 0);
    const label = truncate(item.label, labelRoom);
    // Draw the label grapheme by grapheme so matched characters can be marked.
    const matched = new Set(match.positions);
    let col = x + 2;
    let offsetInLabel = 0;
    for (const g of graphemes(label)) {
      col = buffer.text(col, rowY, g.text, matched.has(offsetInLabel) && !item.disabledReason ? THEME.paletteMatch : base);
      offsetInLabel += g.text.length;
    }
    if (detail) buffer.text(x + 1 + inner - textWidth(detail) - 1, rowY, detail, item.disabledReason ? THEME.errorText : THEME.dim);
    if (isSelected) buffer.restyle(rowRect, (style) => ({ ...style, flags: style.flags ^ THEME.selected.flags }));
    hits.add(rowRect, { kind: 'palette-item', index });
  });
  return { caret: { x: end, y: queryY } };
}
