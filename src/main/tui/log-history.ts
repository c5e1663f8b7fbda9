/**
 * patterm's log as rows for the TUI's history reader, which shows it as it
 * shows a pane's scrollback, search included. Lines wrap at the main area's
 * width; warnings and errors keep their colour on every row they wrap to, so
 * they stand out among the info lines.
 */
import { open } from 'node:fs/promises';
import { historyWindow } from '../../shared/history-window.js';
import { DEFAULT_COLOR, type CellFrame, type HistorySlice } from '../../shared/pane-types.js';
import { graphemes } from '../../renderer/text-width.js';
import { THEME } from '../../renderer/theme.js';

/** The end of a log this long at most is shown: a debug log of a long run can be far more than anyone scrolls through. */
export const LOG_TAIL_BYTES = 4 * 1024 * 1024;

interface Row {
  cells: { text: string; width: number }[];
  fg: number;
}

const LEVEL_COLOURS: [RegExp, number][] = [
  [/^\S+ error /, THEME.errorText.fg],
  [/^\S+ warn /, THEME.warningText.fg],
];

export class LogHistory {
  private cached: { key: string; rows: Row[] } | null = null;

  constructor(private readonly file: () => string | null) {}

  /** Rows `first` .. `first + count` of the log wrapped at `cols` (a negative `first` counts from the end). */
  async slice(first: number, count: number, cols: number): Promise<HistorySlice> {
    const rows = await this.rows(cols);
    const { start, rows: taken } = historyWindow(first, count, rows.length);
    return { frame: frameOf(rows.slice(start, start + taken), cols), first: start, total: rows.length, dropped: 0 };
  }

  private async rows(cols: number): Promise<Row[]> {
    const path = this.file();
    if (!path) return wrap(['patterm writes no log in this run (see PATTERM_LOG in the README).'], cols);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return wrap([`${path}: nothing logged yet.`], cols);
      throw error;
    }
    try {
      const info = await handle.stat();
      const key = `${path}:${info.size}:${info.mtimeMs}:${cols}`;
      if (this.cached?.key === key) return this.cached.rows;
      const length = Math.min(info.size, LOG_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, info.size - length);
      const lines = buffer.toString('utf8').split('\n');
      if (lines.at(-1) === '') lines.pop();
      // Started mid-file: the first line is a part of one.
      if (length < info.size) lines[0] = `… (the log's first ${info.size - length} bytes are not shown)`;
      const rows = wrap([path, ...lines], cols);
      this.cached = { key, rows };
      return rows;
    } finally {
      await handle.close();
    }
  }
}

function wrap(lines: string[], cols: number): Row[] {
  const rows: Row[] = [];
  for (const line of lines) {
    const fg = LEVEL_COLOURS.find(([pattern]) => pattern.test(line))?.[1] ?? DEFAULT_COLOR;
    let row: Row = { cells: [], fg };
    let width = 0;
    for (const { text, width: measured } of graphemes(line)) {
      // A zero-width mark on its own still takes a cell here: the reader shows it rather than lose it.
      const cell = { text, width: Math.max(1, measured) };
      if (width + cell.width > cols) {
        rows.push(row);
        row = { cells: [], fg };
        width = 0;
      }
      row.cells.push(cell);
      width += cell.width;
    }
    rows.push(row);
  }
  return rows;
}

function frameOf(rows: Row[], cols: number): CellFrame {
  const cells = new Uint32Array(rows.length * cols * 4);
  const graphemeTexts: Record<number, string> = {};
  for (let y = 0; y < rows.length; y++) {
    let x = 0;
    for (const { text, width } of rows[y].cells) {
      const index = y * cols + x;
      const codepoint = text.codePointAt(0) ?? 0x20;
      if (text.length > String.fromCodePoint(codepoint).length) graphemeTexts[index] = text;
      cells.set([codepoint, rows[y].fg, DEFAULT_COLOR, width << 8], index * 4);
      // The right half of a wide character: width 0, as the emulator marks it.
      if (width === 2) cells.set([0, rows[y].fg, DEFAULT_COLOR, 0], (index + 1) * 4);
      x += width;
    }
    for (; x < cols; x++) cells.set([0, DEFAULT_COLOR, DEFAULT_COLOR, 1 << 8], (y * cols + x) * 4);
  }
  return {
    rows: rows.length,
    cols,
    cells,
    graphemes: graphemeTexts,
    cursor: { x: 0, y: 0, visible: false },
    activeScreen: 'primary',
    screenVersion: 0,
    bracketedPaste: false,
    mouseTracking: false,
    modes: { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false },
  };
}
