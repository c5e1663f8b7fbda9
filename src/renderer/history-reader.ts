/**
 * The history reader's state: the focused pane's scrollback and screen, seen
 * scrolled back from the live bottom, as a terminal shows its own scrollback
 * under the wheel. Its rows come from the pane's worker (HistorySlice) on
 * request; the view stays where the user put it while output goes on, and
 * scrolling back down to the bottom returns to the live pane.
 *
 * The view holds on to row numbers, not positions: once the pane's scrollback
 * is full, every line of output drops the oldest rows and shifts the rest up,
 * and a position would slide the text under the reader. When the row at the
 * top of the view is itself dropped, the view moves to the oldest row still
 * held and `lostNotice` says so (the caller tells the user).
 */
import type { HistorySlice } from '../shared/pane-types.js';
import { LOG_READER_ID } from '../shared/renderer-protocol.js';

/** More lines than any scrollback holds: "from the oldest row" before the first answer says how many there are. */
const BEYOND_ANY_HISTORY = 1e9;

export interface HistoryRequest {
  /** Row number to start at (HistorySlice); negative counts from the end (-rows: the live screen). */
  first: number;
  count: number;
}

export class HistoryReader {
  /** The rows on screen, once the worker has sent them. */
  slice: HistorySlice | null = null;
  /** Row number at the top of the view; null until the first slice says where the bottom is. */
  private top: number | null = null;
  private total = 0;
  /** The number of the oldest row held, as of the last answer. */
  private dropped = 0;
  /** Home was pressed: the oldest row belongs at the top, whichever it is by the time the answer comes. */
  private toOldest = false;
  /** Requests sent and not yet answered: a stale answer is only re-asked once none is. */
  private outstanding = 0;
  /** The last answer found the row at the top of the view dropped, and the view moved to the oldest row held. */
  lostPlace = false;
  /** The text being typed after `/`, shown in the marker; null when not searching. */
  searchInput: string | null = null;
  /** The last text searched for: `n` and `N` look for it again, from `lastMatch`. */
  lastSearch: string | null = null;
  /** The row number of the last match found; null before one (or after a new search starts). */
  lastMatch: number | null = null;

  /** `linesUp`: how far above the live screen to open (one wheel notch, usually). */
  constructor(
    readonly paneId: string,
    private rows: number,
    private linesUp: number,
  ) {}

  /** It reads patterm's log, not a pane: it stays open whichever pane is focused, however short the log. */
  get isLog(): boolean {
    return this.paneId === LOG_READER_ID;
  }

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
    this.dropped = slice.dropped;
    this.lostPlace = false;
    // The first answer says where the bottom is; every scroll before it counts from there.
    if (this.top === null) this.top = slice.dropped + Math.max(0, slice.total - this.rows - this.linesUp);
    if (this.top < slice.dropped) {
      this.lostPlace = !this.toOldest;
      this.top = slice.dropped;
    }
    return this.outstanding === 0 && slice.first !== this.dropped + Math.max(0, Math.min(this.top - this.dropped, slice.total - this.rows));
  }

  /** How far above the live screen the rows on screen are (those of the slice shown, so the marker matches them). */
  get linesAboveLive(): number {
    if (!this.slice) return this.linesUp;
    return Math.max(0, this.slice.total - this.slice.frame.rows - (this.slice.first - this.slice.dropped));
  }

  /** Whether the whole history fits on one screen: nothing to scroll back to. */
  get isEmpty(): boolean {
    return this.top !== null && this.total <= this.rows;
  }

  /**
   * What to tell the user after an answer that moved the view because its
   * rows were dropped; null when none did. It gives no count: when the whole
   * scrollback turned over between two reads, how many rows went is not known.
   */
  get lostNotice(): string | null {
    return this.lostPlace ? 'Lines you were reading left the full scrollback: showing the oldest kept' : null;
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
    this.toOldest = false;
    const bottom = this.bottomTop();
    const next = Math.max(this.dropped, Math.min(bottom, this.top + delta));
    if (delta > 0 && next >= bottom) return false;
    this.top = next;
    return true;
  }

  /** The row number at the top of the view, where a search starts; null before the first answer. */
  get topRow(): number | null {
    return this.top;
  }

  /** Shows row number `row` at the top of the view (or as near as the oldest row and the bottom allow). */
  jumpTo(row: number): void {
    this.toOldest = false;
    this.top = Math.max(this.dropped, Math.min(row, this.bottomTop()));
  }

  scrollToStart(): void {
    if (this.top === null) this.linesUp = BEYOND_ANY_HISTORY;
    else {
      this.top = this.dropped;
      this.toOldest = true;
    }
  }

  /** The row number at the top of the view when its bottom is the live screen's. */
  private bottomTop(): number {
    return this.dropped + Math.max(0, this.total - this.rows);
  }
}
