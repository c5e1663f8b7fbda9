/**
 * Frame time of the renderer: compose (chrome + the focused pane's cells),
 * diff against the screen, serialise, and write to a real file descriptor
 * (/dev/null, so the terminal's own speed is not measured). Runs the same
 * RendererApp the renderer thread runs, fed frames as a pane worker sends them.
 */
import { closeSync, openSync } from 'node:fs';
import { fdWriter } from '../../src/renderer/host-output.js';
import { paneSizeFor } from '../../src/renderer/layout.js';
import type { UiModel } from '../../src/shared/renderer-protocol.js';
import { RendererApp, MIN_FRAME_INTERVAL_MS } from '../../src/renderer/renderer-app.js';
import { DEFAULT_COLOR, type CellFrame } from '../../src/shared/pane-types.js';

export interface FrameTimeArgs {
  cols: number;
  rows: number;
  frames: number;
  /** 'full': every cell of the pane changes (text and colour); 'line': one row changes, as when typing. */
  change: 'full' | 'line';
}

const MODES: CellFrame['modes'] = { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false };
/** Colours a full-screen repaint cycles through: theme red, a 256-colour entry, and true RGB. */
const COLOURS = [0xcd0000, 0x5fafff, 0x123456, DEFAULT_COLOR];

function paneFrame(cols: number, rows: number, seed: number, change: FrameTimeArgs['change']): CellFrame {
  const cells = new Uint32Array(cols * rows * 4);
  for (let i = 0; i < cols * rows; i++) {
    const row = Math.floor(i / cols);
    const varies = change === 'full' || row === rows - 1;
    const s = varies ? seed : 0;
    cells[i * 4] = 0x21 + ((i + s) % 90);
    cells[i * 4 + 1] = COLOURS[(row + s) % COLOURS.length];
    cells[i * 4 + 2] = (row + s) % 7 === 0 ? 0x303030 : DEFAULT_COLOR;
    cells[i * 4 + 3] = ((row + s) % 5 === 0 ? 1 : 0) | (1 << 8);
  }
  return { rows, cols, cells, graphemes: {}, cursor: { x: seed % cols, y: rows - 1, visible: true }, activeScreen: 'alternate', screenVersion: seed, bracketedPaste: false, mouseTracking: false, modes: MODES };
}

export default async function tuiFrameTime(args: FrameTimeArgs): Promise<{ ms: number[]; bytes: number[] }> {
  const fd = openSync('/dev/null', 'w');
  const ms: number[] = [];
  const bytes: number[] = [];
  const app = new RendererApp(
    args.cols,
    args.rows,
    fdWriter(fd),
    (message) => {
      if (message.t === 'frame-drawn') {
        ms.push(message.durationMs);
        bytes.push(message.bytes);
      }
    },
    true,
  );
  app.start();
  const pane = { id: 'p1', sessionId: 'p1', parentId: null, name: 'bench', kind: 'process' as const, status: 'running' as const, exitCode: null, signal: null, owner: 'user' as const, title: '' };
  const model: UiModel = { sessions: [{ id: 'p1', name: 'bench', rootId: 'p1', childIds: [] }], panes: { p1: pane }, presets: [], scratchpads: [], worktrees: [] };
  app.onMessage({ t: 'model', model });
  const size = paneSizeFor(args.cols, args.rows);
  // Warm up (JIT, first full paint), then measure; one frame per cap interval so none is coalesced.
  const total = args.frames + 20;
  for (let i = 0; i < total; i++) {
    if (i === 20) (ms.length = 0), (bytes.length = 0);
    app.onMessage({ t: 'frame', paneId: 'p1', frame: paneFrame(size.cols, size.rows, i + 1, args.change) });
    await new Promise((resolve) => setTimeout(resolve, MIN_FRAME_INTERVAL_MS + 1));
  }
  app.stop();
  closeSync(fd);
  return { ms, bytes };
}
