/**
 * Stable numbers for a pane's history rows. The emulator addresses its
 * scrollback by position from the oldest row it still holds; once the
 * scrollback is full it drops its oldest rows (ghostty-web prunes a page,
 * ~400-600 rows, at a time) and every position shifts, so a reader holding a
 * position would slide onto other text. A row's number is its position plus
 * the rows dropped before it, which stays the same while it is held.
 *
 * ghostty-web does not count what it drops, so the count is derived: each
 * sync hashes the scrollback rows, and finds how far the rows seen at the
 * previous sync have moved up (the longest run of them that now starts the
 * scrollback). Scrollback rows never change in place, so that shift is the
 * rows dropped since. When none of them is left (the whole scrollback turned
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

  /** Takes the scrollback's row hashes now (oldest first); returns `dropped`. */
  sync(rows: Uint32Array): number {
    if (!this.rebasing) this.dropped += this.known.length - overlap(this.known, rows);
    this.rebasing = false;
    this.known = rows;
    return this.dropped;
  }
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
