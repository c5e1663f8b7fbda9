/**
 * Composes one whole screen into a CellBuffer: chrome, the focused pane's
 * cells in the main area, and the palette on top. It draws everything every
 * time (cheap: a few thousand words); FrameWriter then sends only what changed.
 */
import type { CellBuffer } from './cell-buffer.js';
import type { HostCursor } from './frame-writer.js';
import { HitRegions } from './hit-regions.js';
import { computeLayout, type Layout, type Rect } from './layout.js';
import { drawPalette } from './palette-view.js';
import type { Palette } from './palette.js';
import { drawRail } from './rail-view.js';
import { drawScratchpadViewer } from './scratchpad-viewer-view.js';
import { drawHistoryReader } from './history-reader-view.js';
import { drawStatusLine } from './status-line-view.js';
import { drawTabBar } from './tab-bar-view.js';
import { textWidth } from './text-width.js';
import { THEME } from './theme.js';
import type { UiState } from './ui-state.js';

export const EMPTY_STATE_HINT = 'Press Ctrl-K to spawn an agent or process';

export class Compositor {
  readonly hits = new HitRegions();
  layout: Layout;

  constructor(cols: number, rows: number) {
    this.layout = computeLayout(cols, rows);
  }

  compose(buffer: CellBuffer, state: UiState, palette: Palette | null): HostCursor {
    const layout = (this.layout = computeLayout(buffer.cols, buffer.rows));
    buffer.clear();
    this.hits.clear();
    drawTabBar(buffer, layout.tabBar, state, this.hits);
    if (layout.divider) for (let y = 0; y < layout.divider.rows; y++) buffer.text(layout.divider.x, layout.divider.y + y, '│', THEME.divider);
    if (layout.rail) drawRail(buffer, layout.rail, state, this.hits);
    drawStatusLine(buffer, layout.status, state, palette !== null);

    let cursor: HostCursor = { x: 0, y: 0, visible: false, shape: 0 };
    if (state.history?.isLog && !state.viewer) drawHistoryReader(buffer, layout.main, state.history);
    else if (state.isEmpty) drawEmptyState(buffer, layout.main);
    else cursor = this.drawMain(buffer, layout.main, state);

    if (palette) {
      const { caret } = drawPalette(buffer, layout.main, palette, this.hits);
      cursor = { x: caret.x, y: caret.y, visible: true, shape: 0 };
    }
    return cursor;
  }

  private drawMain(buffer: CellBuffer, main: Rect, state: UiState): HostCursor {
    const frame = state.focusedFrame();
    const pane = state.focusedPane();
    const hidden: HostCursor = { x: 0, y: 0, visible: false, shape: 0 };
    const viewer = state.viewer;
    if (viewer) {
      const text = state.preview?.name === viewer.name ? state.preview.text : null;
      drawScratchpadViewer(buffer, main, viewer, text, state.model.scratchpads.some((pad) => pad.name === viewer.name));
      return hidden;
    }
    if (!frame || !pane) return hidden;
    // Until its first rows arrive, the reader shows the live screen under its marker: no blank flash.
    if (state.history?.paneId === pane.id) {
      if (!state.history.slice) buffer.blit(frame, main);
      drawHistoryReader(buffer, main, state.history);
      return hidden;
    }
    const top = buffer.blit(frame, main);
    const { x, visible } = frame.cursor;
    const y = frame.cursor.y - top;
    if (!visible || pane.status !== 'running' || x >= main.cols || y < 0 || y >= main.rows) return hidden;
    return { x: main.x + x, y: main.y + y, visible: true, shape: state.cursorShapes.get(pane.id) ?? 0 };
  }
}

function drawEmptyState(buffer: CellBuffer, main: Rect): void {
  const width = textWidth(EMPTY_STATE_HINT);
  const x = main.x + Math.max(0, Math.floor((main.cols - width) / 2));
  const y = main.y + Math.floor(main.rows / 2);
  buffer.text(x, y, EMPTY_STATE_HINT, THEME.dim, main.x + main.cols);
}
