/**
 * Stable numbers for a pane's history rows. The emulator addresses its
 * scrollback by position from the oldest row it still holds; once the
 * scrollback is full it drops its oldest rows (ghostty-web prunes a page,
 * ~400-600 rows, at a time) and every position shifts, so a reader holding a
 * position would slide onto other text. A row's number is its position plus
 * the rows dropped before it, which stays the same while it is held.
 *
 * ghostty-web does not count what it drops, so the count is derived: each
 * sync finds how far the rows seen at the previous sync have moved up (the
 * longest run of them that now starts the scrollback). Scrollback rows never
 * change in place, so that shift is the rows dropped since. Reading a row's
 * hash is a WASM call, and a full scrollback holds tens of thousands of rows,
 * too much for every wheel notch on the thread that
 * parses the pane: a sync reads a few rows to find the shift and then only
 * the rows added since, and reads every row only when that fails. When none of them is left (the whole scrollback turned
 * over between two syncs, a resize rewrapped it, or it was cleared), all of
 * them count as dropped: rows that came and went unseen are not counted, but
 * no row still held ever gets a number that named another row before.
 * Output that repeats itself can look shifted by less than it was; the rows
 * a number then names look the same as the ones it named.
 *
 * A resize is the exception: it rewrites rows in place (a width change
 * reflows them and changes every row's cells; a taller screen takes rows back
 * from the scrollback's end), so no row seen before would match and all of
 * them would count as dropped, sending a reader to the oldest row with a false
 * notice. After a resize the next sync takes the rows as they are instead,
 * numbered by position from the same `dropped`, as the reader (refitted on
 * resize by its distance from the live screen) expects.
 */
/** A scrollback's row hashes, oldest first, read one at a time (a Uint32Array is one). */
export interface RowHashes {
  readonly length: number;
  at(index: number): number | undefined;
}

/** Rows read from the top of the scrollback to find where the rows seen before now start. */
const PROBE_ROWS = 4;
/**
 * Candidate shifts checked (two more rows read each) before reading every row
 * instead, as a share of the rows held: output that repeats every few lines
 * lines up with the probe at many shifts, and a quarter keeps a sync under
 * 1.5x the cost of reading every row.
 */
const CANDIDATE_SHARE = 0.25;

export class RowNumbering {
  /** Rows dropped before the oldest one held: the number of scrollback row 0. */
  dropped = 0;
  /** Hashes of the scrollback rows at the last sync, oldest first. */
  private known: Uint32Array = new Uint32Array(0);
  /** The emulator was resized since the last sync: its rows are not comparable with `known`. */
  private rebasing = false;

  /** The emulator was resized: the next sync numbers the rows anew by position, counting none as dropped. */
  rebase(): void {
    this.rebasing = true;
  }

  /** Takes the scrollback's rows now; returns `dropped`. */
  sync(rows: RowHashes): number {
    if (this.rebasing || this.known.length === 0) {
      this.rebasing = false;
      this.known = readRows(rows, new Uint32Array(0));
      return this.dropped;
    }
    const shift = this.quickShift(rows);
    if (shift !== null) {
      this.dropped += shift;
      this.known = readRows(rows, this.known.subarray(shift));
    } else {
      const all = readRows(rows, new Uint32Array(0));
      this.dropped += this.known.length - overlap(this.known, all);
      this.known = all;
    }
    return this.dropped;
  }

  /**
   * The smallest shift at which the rows seen before line up with the rows
   * held now, judged from the first PROBE_ROWS rows and two more (the middle
   * and the last of the overlap); null when none is found within
   * CANDIDATE_SHARE, and the caller compares every row.
   */
  private quickShift(rows: RowHashes): number | null {
    const known = this.known;
    const probe = Math.min(PROBE_ROWS, rows.length);
    if (probe === 0) return null;
    const head = new Uint32Array(probe);
    for (let i = 0; i < probe; i++) head[i] = rows.at(i) ?? 0;
    let candidates = 0;
    for (let shift = 0; shift < known.length; shift++) {
      const kept = known.length - shift;
      if (kept > rows.length) continue; // rows are only ever dropped from the top, never from below
      let lined = true;
      for (let i = 0; i < probe && i < kept; i++) {
        if (known[shift + i] !== head[i]) {
          lined = false;
          break;
        }
      }
      if (!lined) continue;
      if (++candidates > known.length * CANDIDATE_SHARE) return null;
      const last = kept - 1;
      const middle = last >> 1;
      if (rows.at(last) === known[shift + last] && rows.at(middle) === known[shift + middle]) return shift;
    }
    return null;
  }
}

/** `kept` followed by the hashes of the rows after it: the rows held now. */
function readRows(rows: RowHashes, kept: Uint32Array): Uint32Array {
  const all = new Uint32Array(rows.length);
  all.set(kept);
  for (let i = kept.length; i < rows.length; i++) all[i] = rows.at(i) ?? 0;
  return all;
}

/**
 * The length of the longest suffix of `before` that `after` starts with: the
 * rows of `before` still held, when `after` is `before` with rows dropped
 * from its start and added at its end. Knuth-Morris-Pratt over row hashes,
 * so output of identical lines costs linear time too.
 */
function overlap(before: Uint32Array, after: Uint32Array): number {
  if (before.length === 0 || after.length === 0) return 0;
  // fail[i]: the longest proper prefix of after[0..i] that is also its suffix.
  const fail = new Uint32Array(after.length);
  for (let i = 1, k = 0; i < after.length; i++) {
    while (k > 0 && after[i] !== after[k]) k = fail[k - 1];
    if (after[i] === after[k]) k++;
    fail[i] = k;
  }
  let matched = 0;
  for (let i = 0; i < before.length; i++) {
    while (matched > 0 && (matched === after.length || before[i] !== after[matched])) matched = fail[matched - 1];
    if (before[i] === after[matched]) matched++;
  }
  return matched;
}

/**
 * The history reader's jump to a command: of `rows` (prompt row numbers,
 * ascending), the last one before `from` (direction -1) or the first one
 * after it (+1); -1 when there is none that way.
 */
export function nearestRow(rows: readonly number[], from: number, direction: -1 | 1): number {
  if (direction < 0) {
    for (let i = rows.length - 1; i >= 0; i--) if (rows[i] < from) return rows[i];
    return -1;
  }
  for (const row of rows) if (row > from) return row;
  return -1;
}
