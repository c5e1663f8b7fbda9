/**
 * Which rows a history read gets: `count` rows from row `first` (negative:
 * counted from the end), clamped to the `total` rows there are. The same for
 * a live emulator and for what a retired pane left.
 */
export function historyWindow(first: number, count: number, total: number): { start: number; rows: number } {
  const rows = Math.max(0, Math.min(count, total));
  const start = Math.max(0, Math.min(first < 0 ? total + first : first, total - rows));
  return { start, rows };
}
