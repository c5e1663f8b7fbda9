/**
 * Which rows a history read gets: `count` rows from row number `first`
 * (negative: counted from the end), clamped to the `total` rows held, whose
 * oldest is numbered `dropped` (row-numbering.ts). A number already dropped
 * reads from the oldest row held. `start` is a position among the rows held.
 * The same for a live emulator and for what a retired pane left.
 */
export function historyWindow(first: number, count: number, total: number, dropped = 0): { start: number; rows: number } {
  const rows = Math.max(0, Math.min(count, total));
  const start = Math.max(0, Math.min(first < 0 ? total + first : first - dropped, total - rows));
  return { start, rows };
}
