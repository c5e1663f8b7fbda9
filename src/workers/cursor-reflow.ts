/**
 * Carries the cursor through ghostty-web 0.4.0's reflow (a resize that
 * changes the width). The reflow moves the cursor with the cell it sits on,
 * but a blank cell is not carried: a cursor past the end of its line's text
 * (where a shell's cursor waits after a prompt or typed input) comes out at
 * a wrong column, and a row too high when the text now ends on a different
 * row. The shell then redraws its command line from there, over the row above.
 *
 * So before the resize the cursor is put on the last character before it in
 * its line, a cell the reflow does carry; after it, the cursor is moved on by
 * the same distance, wrapping at the new width: where the reflowed text puts it.
 */

/** What the carrying reads from the emulator and does to it. */
export interface ReflowScreen {
  readonly cols: number;
  readonly rows: number;
  cursor(): { x: number; y: number };
  /** The (first) codepoint of the cell's character; 0 for a blank, and for the right half of a wide character. */
  codepoint(x: number, y: number): number;
  /** Row `y` goes on with the line of row `y - 1` (a soft wrap). */
  continuesAbove(y: number): boolean;
  /** Whether a DEC private mode is set. */
  decMode(mode: number): boolean;
  /** Control sequences straight to the emulator's parser, as output is. */
  send(sequence: string): void;
}

/** DEC mode 45: a backspace from the first column goes on at the end of the row above. */
const REVERSE_WRAP = 45;

const moveCursor = (screen: ReflowScreen, x: number, y: number) => screen.send(`\x1b[${y + 1};${x + 1}H`);

/**
 * Whether the cursor, in the last column, waits to wrap (a character was
 * just printed there) or was moved there. ghostty-web does not say; but as in
 * xterm, a backspace with reverse wrap on only ends the wait. Leaves the
 * cursor where it was, without the wait.
 */
function waitsToWrap(screen: ReflowScreen): boolean {
  const { x } = screen.cursor();
  const reverseWrap = screen.decMode(REVERSE_WRAP);
  screen.send(reverseWrap ? '\b' : `\x1b[?${REVERSE_WRAP}h\b\x1b[?${REVERSE_WRAP}l`);
  if (screen.cursor().x === x) return true;
  screen.send('\x1b[C');
  return false;
}

/** A cursor pinned before a reflow: it belongs this many cells past where it now is. */
export interface PinnedCursor {
  distance: number;
}

export class CursorCarrier {
  /**
   * Where the last release stopped the cursor short of its place (the last
   * column of its line's last row, as a pending wrap would be), and by how
   * many cells. A later resize starts from its place, not from there, if
   * nothing moved the cursor in between.
   */
  private shortOf: { x: number; y: number; cells: number } | null = null;

  /** The emulator parsed output: the cursor's place is the program's again. */
  forget(): void {
    this.shortOf = null;
  }

  /**
   * Runs `resize` (the emulator's own), carrying the cursor through it when
   * `reflows` (the width changes; the emulator can be written to). `screen`
   * reads the emulator as it is at the time.
   */
  resize(screen: () => ReflowScreen, resize: () => void, reflows: boolean): void {
    if (reflows) {
      const pinned = this.pin(screen());
      resize();
      if (pinned) this.release(screen(), pinned);
      return;
    }
    const shortOf = this.shortOf;
    if (!shortOf) return resize();
    // A change of height alone moves no text within its rows, but may scroll them: the cursor stays short of its place by as much.
    const before = screen().cursor();
    resize();
    const after = screen().cursor();
    this.shortOf = before.x === shortOf.x && before.y === shortOf.y ? { x: after.x, y: after.y, cells: shortOf.cells } : null;
  }

  /**
   * Before the resize: when the cursor sits on a blank, moves it onto the
   * last character before it in its line, or onto the line's first cell when
   * the line has none. Null when the reflow carries the cursor by itself (it
   * is on a character, or at its line's start), or when its line began above
   * the screen, out of sight.
   */
  private pin(screen: ReflowScreen): PinnedCursor | null {
    const { x, y } = screen.cursor();
    const shortBy = this.shortOf?.x === x && this.shortOf.y === y ? this.shortOf.cells : 0;
    this.shortOf = null;
    if (x >= screen.cols || y >= screen.rows) return null;
    const onText = screen.codepoint(x, y) !== 0;
    // A cursor waiting to wrap belongs past the character just printed: a narrow one under it, or a wide one ending under it.
    const waiting = shortBy === 0 && x === screen.cols - 1 && (onText || (x > 0 && screen.codepoint(x - 1, y) !== 0)) && waitsToWrap(screen);
    if (onText) return waiting || shortBy > 0 ? { distance: (waiting ? 1 : 0) + shortBy } : null;
    if (waiting) {
      moveCursor(screen, x - 1, y);
      return { distance: 2 };
    }
    let pinX = x;
    let pinY = y;
    let distance = 0;
    while (true) {
      if (pinX > 0) pinX--;
      else if (screen.continuesAbove(pinY)) {
        if (pinY === 0) return null;
        pinY--;
        pinX = screen.cols - 1;
      } else break; // the line's first cell, and no character before the cursor
      distance++;
      if (screen.codepoint(pinX, pinY) !== 0) break;
    }
    if (distance + shortBy === 0) return null;
    if (distance > 0) moveCursor(screen, pinX, pinY);
    return { distance: distance + shortBy };
  }

  /**
   * After the resize: the cursor is on its pin, wherever the reflow put it;
   * moves it on by the pinned distance at the new width. A place past the end
   * of the line's last row (text that now ends at the right edge, or blanks
   * past it) becomes the last column of that row, where a pending wrap would be.
   */
  private release(screen: ReflowScreen, pinned: PinnedCursor): void {
    let { x: pinX, y: pinY } = screen.cursor();
    // A wide character moved to the next row leaves the cursor on the blank it left at this row's end.
    if (pinX === screen.cols - 1 && pinY + 1 < screen.rows && screen.codepoint(pinX, pinY) === 0 && screen.continuesAbove(pinY + 1)) {
      pinX = 0;
      pinY++;
    }
    const at = pinX + pinned.distance;
    let x = at % screen.cols;
    let y = pinY + Math.floor(at / screen.cols);
    let lastRow = pinY;
    while (lastRow + 1 < screen.rows && screen.continuesAbove(lastRow + 1)) lastRow++;
    if (y > lastRow) {
      x = screen.cols - 1;
      y = lastRow;
      this.shortOf = { x, y, cells: at - ((lastRow - pinY) * screen.cols + x) };
    }
    moveCursor(screen, x, y);
  }
}
