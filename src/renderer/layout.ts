/**
 * Where each part of the UI sits on the host terminal: tab
 * bar over the main area, the rail on the right from the top, the status line
 * across the bottom. Pure, so the bridge can size PTYs with the same numbers
 * the renderer draws with.
 */

export interface Rect {
  x: number;
  y: number;
  cols: number;
  rows: number;
}

export interface Layout {
  cols: number;
  rows: number;
  tabBar: Rect;
  main: Rect;
  /** Null when the terminal is too narrow to spare a rail. */
  rail: Rect | null;
  /** The one-column line between the main area and the rail. */
  divider: Rect | null;
  status: Rect;
}

/** Below this width a rail would squeeze the pane more than it helps; the rail hides. */
const MIN_COLS_FOR_RAIL = 60;
/** The rail takes a quarter of the width, within these bounds (names need ~20 columns to be readable). */
const RAIL_MIN_COLS = 20;
const RAIL_MAX_COLS = 36;
const RAIL_SHARE = 0.25;

export function computeLayout(cols: number, rows: number): Layout {
  const width = Math.max(1, cols);
  const height = Math.max(3, rows);
  const railCols = width >= MIN_COLS_FOR_RAIL ? Math.min(RAIL_MAX_COLS, Math.max(RAIL_MIN_COLS, Math.floor(width * RAIL_SHARE))) : 0;
  const mainCols = railCols > 0 ? width - railCols - 1 : width;
  const bodyRows = height - 1; // everything above the status line
  return {
    cols: width,
    rows: height,
    tabBar: { x: 0, y: 0, cols: mainCols, rows: 1 },
    main: { x: 0, y: 1, cols: mainCols, rows: bodyRows - 1 },
    rail: railCols > 0 ? { x: mainCols + 1, y: 0, cols: railCols, rows: bodyRows } : null,
    divider: railCols > 0 ? { x: mainCols, y: 0, cols: 1, rows: bodyRows } : null,
    status: { x: 0, y: height - 1, cols: width, rows: 1 },
  };
}

/** The size every PTY gets: the main area (tab bar, rail and status line excluded). */
export function paneSizeFor(cols: number, rows: number): { cols: number; rows: number } {
  const { main } = computeLayout(cols, rows);
  return { cols: main.cols, rows: main.rows };
}

export function contains(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.cols && y >= rect.y && y < rect.y + rect.rows;
}
