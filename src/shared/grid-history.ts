/**
 * Recent screens by screen_version, so that a reader who last saw version N
 * can be told which rows changed since (read_output's since_version) instead
 * of diffing whole screens itself.
 */

/** Screens kept: a poller a few versions behind still gets a row diff; older asks get every row. */
const GRID_HISTORY = 16;

export class GridHistory {
  private readonly screens = new Map<number, string[]>();

  remember(version: number, lines: string[]): void {
    if (this.screens.has(version)) return;
    this.screens.set(version, lines);
    if (this.screens.size > GRID_HISTORY) this.screens.delete(this.screens.keys().next().value as number);
  }

  /** Rows that differ between `sinceVersion` and `lines`; every row when that version is not kept. */
  changedRowsSince(sinceVersion: number, lines: string[]): number[] {
    const before = this.screens.get(sinceVersion);
    if (!before) return lines.map((_, row) => row);
    const changed: number[] = [];
    for (let row = 0; row < Math.max(before.length, lines.length); row++) {
      if (before[row] !== lines[row]) changed.push(row);
    }
    return changed;
  }
}
