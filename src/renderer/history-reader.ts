/**
 * The history reader's state: the focused pane's scrollback and screen, seen
 * scrolled back from the live bottom, as a terminal shows its own scrollback
 * under the wheel. Its rows come from the pane's worker (HistorySlice) on
 * request; the view stays where the user put it while output goes on, and
 * scrolling back down to the bottom returns to the live pane.
 */
import type { HistorySlice } from '../shared/pane-types.js';

/** More lines than any scrollback holds: "from the oldest row" before the first answer says how many there are. */
const BEYOND_ANY_HISTORY = 1e9;

export interface HistoryRequest {
  /** History row to start at; negative counts from the end (-rows: the live screen). */
  first: number;
  count: number;
}

export class HistoryReader {
  /** The rows on screen, once the worker has sent them. */
  slice: HistorySlice | null = null;
  /** History row at the top of the view; null until the first slice says where the bottom is. */
  private top: number | null = null;
  private total = 0;
  /** Requests sent and not yet answered: a stale answer is only re-asked once none is. */
  private outstanding = 0;
  /** The text being typed after `/`, shown in the marker; null when not searching. */
  searchInput: string | null = null;
  /** The last text searched for: `n` and `N` look for it again, from `lastMatch`. */
  lastSearch: string | null = null;
  /** The history row of the last match found; null before one (or after a new search starts). */
  lastMatch: number | null = null;

  /** `linesUp`: how far above the live screen to open (one wheel notch, usually). */
  constructor(
    readonly paneId: string,
    private rows: number,
    private linesUp: number,
  ) {}

  /** What to ask the worker for now (the caller sends it). */
  request(): HistoryRequest {
    this.outstanding++;
    if (this.top === null) return { first: -(this.rows + this.linesUp), count: this.rows };
    return { first: this.top, count: this.rows };
  }

  /**
   * A slice arrived. One asked for before the latest scroll is still shown (it
   * is close, and better than nothing); true means it is stale and no newer
   * request is on its way, so the caller should ask again.
   */
  receive(slice: HistorySlice): boolean {
    this.outstanding = Math.max(0, this.outstanding - 1);
    this.slice = slice;
    this.total = slice.total;
    // The first answer says where the bottom is; every scroll before it counts from there.
    if (this.top === null) this.top = Math.max(0, slice.total - this.rows - this.linesUp);
    return this.outstanding === 0 && slice.first !== Math.max(0, Math.min(this.top, slice.total - this.rows));
  }

  /** How far above the live screen the rows on screen are (those of the slice shown, so the marker matches them). */
  get linesAboveLive(): number {
    if (!this.slice) return this.linesUp;
    return Math.max(0, this.slice.total - this.slice.frame.rows - this.slice.first);
  }

  /** Whether the whole history fits on one screen: nothing to scroll back to. */
  get isEmpty(): boolean {
    return this.top !== null && this.total <= this.rows;
  }

  /**
   * Moves the view by `delta` rows (negative: back in time). Returns false when
   * the move reached the live bottom, which ends reading.
   */
  scrollBy(delta: number): boolean {
    if (this.top === null) {
      this.linesUp = Math.max(0, this.linesUp - delta);
      return this.linesUp > 0;
    }
    const bottom = Math.max(0, this.total - this.rows);
    const next = Math.max(0, Math.min(bottom, this.top + delta));
    if (delta > 0 && next >= bottom) return false;
    this.top = next;
    return true;
  }

  /** The history row at the top of the view, where a search starts; null before the first answer. */
  get topRow(): number | null {
    return this.top;
  }

  /** Shows history row `row` at the top of the view (or as near as the bottom allows). */
  jumpTo(row: number): void {
    this.top = Math.max(0, Math.min(row, Math.max(0, this.total - this.rows)));
  }

  scrollToStart(): void {
    if (this.top === null) this.linesUp = BEYOND_ANY_HISTORY;
    else this.top = 0;
  }
}
