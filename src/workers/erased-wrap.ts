/**
 * An erase from a row's first column ends the soft wrap into that row, as in
 * xterm and tmux: the row no longer goes on with the line above, and a later
 * reflow keeps the two apart. ghostty-web 0.4.0 keeps the wrap, so widening
 * joins them. zsh draws a wrapped command line this way (at each right edge a
 * space that wraps, CR, EL, then the next row): widened, its rows joined into
 * fewer, and zsh's redraw, which starts as many rows up as the line took
 * before, landed on the output above and wrote over it.
 *
 * ghostty ends a row's wrap only when that row itself is erased from a cell
 * to its end. So after such an erase (found by erased-wrap-matcher.ts), the
 * last cell of the row above is erased and written again as it was, and the
 * pen put back as a probe character shows it.
 */
import { CellFlag } from '../shared/pane-types.js';
import { sgrFor } from '../shared/screen-serializer.js';

/** One screen cell as the mending reads it: its text ('' when blank), colours (DEFAULT_COLOR or 0xRRGGBB), CellFlag bits, width, and whether it is part of a link. */
export interface WrapCell {
  text: string;
  fg: number;
  bg: number;
  flags: number;
  width: number;
  linked: boolean;
}

/** What the mending reads from the emulator and does to it. */
export interface WrapScreen {
  readonly cols: number;
  cursor(): { x: number; y: number };
  /** Row `y` goes on with the line of row `y - 1` (a soft wrap). */
  continuesAbove(y: number): boolean;
  /** Whether a DEC private mode is set. */
  decMode(mode: number): boolean;
  cell(x: number, y: number): WrapCell;
  /** Control sequences and text straight to the emulator's parser, as output is. */
  send(sequence: string): void;
}

/** DECOM: positions count from the scroll region's corner. DECLRMM: CR goes to the left margin. Either way the cursor addressing below would be off. */
const ORIGIN_MODE = 6;
const LEFT_RIGHT_MARGIN_MODE = 69;

/**
 * The probe: 'q' comes back as a line-drawing character when the DEC special
 * graphics set is in use, '#' as a pound sign with the British set; with
 * either, characters written back could change, so the wrap is left alone.
 */
const PROBE = 'q#';
const PROBE_CODEPOINTS = ['q', '#'];

const cursorTo = (x: number, y: number) => `\x1b[${y + 1};${x + 1}H`;

/**
 * After an erase from the first column: when the cursor's row went on with the line above,
 * ends that wrap. Nothing is done when the row did not, or when what was on
 * the screen could not be written back exactly: DECOM or DECLRMM set, a
 * charset that maps characters, an underline in the pen (its style and colour
 * are not readable), a link in the pen or the cell (its id is not). Then
 * ghostty's joined rows remain.
 */
export function endErasedWrap(screen: WrapScreen): void {
  const { x, y } = screen.cursor();
  if (x !== 0 || y === 0 || !screen.continuesAbove(y)) return;
  if (screen.decMode(ORIGIN_MODE) || screen.decMode(LEFT_RIGHT_MARGIN_MODE)) return;
  // The row was just erased whole: the probe goes there, and is erased again with the same pen.
  screen.send(PROBE);
  const pen = screen.cell(0, y);
  const plainCharset = PROBE_CODEPOINTS.every((character, i) => screen.cell(i, y).text === character);
  let lastX = screen.cols - 1;
  let last = screen.cell(lastX, y - 1);
  // The right half of a wide character: the character starts a cell before.
  if (last.width === 0 && lastX > 0) last = screen.cell(--lastX, y - 1);
  if (!plainCharset || pen.flags & CellFlag.Underline || pen.linked || last.linked) {
    screen.send(`\r\x1b[K`);
    return;
  }
  // Erased with its own colours, so a blank last cell (a wide character's place left empty at the edge) keeps its background.
  let mend = `${cursorTo(lastX, y - 1)}${sgrFor(last.fg, last.bg, last.flags)}\x1b[K`;
  mend += `${last.text}${sgrFor(pen.fg, pen.bg, pen.flags)}${cursorTo(0, y)}\x1b[K`;
  screen.send(mend);
}
