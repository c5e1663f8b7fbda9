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
 * to its end. So after such an erase (CR, then EL 0 or 2, the form shells and
 * progress bars use), the last cell of the row above is erased and written
 * again as it was, and the pen put back as a probe character shows it.
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

const CR = 0x0d;
const ESC = 0x1b;
const LEFT_BRACKET = 0x5b;
const DIGIT_0 = 0x30;
const DIGIT_2 = 0x32;
const FINAL_K = 0x4b;
/** CR ESC [: where every match starts; found with Buffer's indexOf, which is memchr-fast on output that has none. */
const MATCH_START = Buffer.from([CR, ESC, LEFT_BRACKET]);
/** The longest match: CR ESC [ 2 K. */
const LONGEST_MATCH = 5;

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

/**
 * Where a CR-then-EL ends in each write, matches split across writes
 * included: ends are offsets into the write (just past the K).
 */
export class ErasedWrapMatcher {
  /** The start of a possible match at the end of the last write. */
  private carried: Uint8Array = new Uint8Array(0);

  /** Offsets just past each match in `bytes`, in order; `bytes` is the next write after the last one seen. */
  ends(bytes: Uint8Array): number[] {
    const ends: number[] = [];
    const carried = this.carried;
    if (carried.length > 0) {
      // Only a match that starts in the carried bytes and ends in this write.
      const joined = new Uint8Array(carried.length + Math.min(bytes.length, LONGEST_MATCH));
      joined.set(carried);
      joined.set(bytes.subarray(0, joined.length - carried.length), carried.length);
      const end = matchEnd(joined, 0);
      if (end > carried.length) ends.push(end - carried.length);
    }
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let at = view.indexOf(MATCH_START); at !== -1; at = view.indexOf(MATCH_START, at + 1)) {
      const end = matchEnd(bytes, at);
      if (end > 0) ends.push(end);
    }
    this.carried = carriedTail(carried, bytes);
    return ends;
  }
}

/** The end of a CR ESC [ (0|2)? K at `at`, or 0: none, or cut short by the end of `bytes`. */
function matchEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== CR || bytes[at + 1] !== ESC || bytes[at + 2] !== LEFT_BRACKET) return 0;
  const next = bytes[at + 3];
  if (next === FINAL_K) return at + 4;
  if ((next === DIGIT_0 || next === DIGIT_2) && bytes[at + 4] === FINAL_K) return at + 5;
  return 0;
}

/** The shortest tail of what was written so far that could start a match the next write ends (a CR and what followed it). */
function carriedTail(carried: Uint8Array, bytes: Uint8Array): Uint8Array {
  const all = bytes.length >= LONGEST_MATCH - 1 ? bytes : concat(carried, bytes);
  const from = Math.max(0, all.length - (LONGEST_MATCH - 1));
  for (let at = from; at < all.length; at++) {
    if (all[at] === CR && couldStillMatch(all.subarray(at))) return all.slice(at);
  }
  return new Uint8Array(0);
}

/** `tail` (starting with CR) is a proper start of a match. */
function couldStillMatch(tail: Uint8Array): boolean {
  const expected = [[CR], [ESC], [LEFT_BRACKET], [DIGIT_0, DIGIT_2]];
  return tail.every((byte, i) => expected[i]?.includes(byte) ?? false);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

const cursorTo = (x: number, y: number) => `\x1b[${y + 1};${x + 1}H`;

/**
 * After a CR-then-EL: when the cursor's row went on with the line above,
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
