/**
 * Skimming a flood: which leading part of a pane's unparsed backlog the
 * emulator can skip without any difference to the screen, the scrollback or
 * the terminal state it ends with.
 *
 * Why it is exact. A run of "plain" output (text, UTF-8, SGR sequences, and
 * C0 controls other than ESC, ENQ, SO and SI) changes only cells, the cursor
 * and the pen. Take a cut right after a LF inside such a run, with at least
 * `keepLines` more LFs before the run ends:
 *  - Cells: plain bytes never move the cursor up, so after the cut those LFs
 *    bring the cursor to the bottom row within `rows` of them and then scroll
 *    one row out per LF. `keepLines` (linesThatFillScrollback) is enough to
 *    scroll every row the screen held at the cut out of the screen and then
 *    out of ghostty's scrollback: no cell written before the cut survives,
 *    whether it was parsed or not.
 *  - Cursor: the emulator parses CR LF in place of the skipped bytes, so the
 *    kept part starts at column 0 with no wrap pending, as it would have.
 *  - Pen: the skipped SGR sequences are parsed (the digest), from the last
 *    one that begins with a reset. Every other state (modes, charsets, tab
 *    stops, margins, hyperlink, title) is untouched by plain bytes.
 * Two conditions are the caller's: the stream must be between sequences at
 * the backlog's start (the SGR digest must not finish a sequence the emulator
 * began), and no scroll margins may be set (a cursor below a bottom margin
 * overwrites the last row in place instead of scrolling; see
 * SequenceScanner.marginsAreFullScreen).
 *
 * Why bother: only the last few thousand lines of a flood are ever visible,
 * and ghostty-web parses slower than a PTY can be read, so skipping the rest
 * lets a flood run faster than the bare parse, with the same screen and
 * scrollback at the end (figures: docs/perf-notes.md); the output ring still
 * gets every byte.
 */

/**
 * ghostty-web stores a row as 8 bytes of row header and 8 bytes per cell, so
 * a scrollback of `bytes` never holds more than bytes / (8 * cols + 8) rows.
 * ghostty-web 0.4.0 stays well inside this bound whatever the content, so it
 * is safe with room to spare (the check: docs/perf-notes.md).
 */
const GHOSTTY_ROW_HEADER_BYTES = 8;
const GHOSTTY_CELL_BYTES = 8;
/** Below this limit ghostty keeps its minimum, two pages, so the bound uses this instead. */
const GHOSTTY_MIN_SCROLLBACK_BYTES = 1024 * 1024;

/**
 * LFs after a cut that push everything on the screen at the cut out of the
 * screen and then out of the scrollback; Infinity for ghostty's unlimited
 * scrollback (a limit of 0), where nothing ever leaves.
 */
export function linesThatFillScrollback(cols: number, rows: number, scrollbackBytes: number): number {
  if (scrollbackBytes <= 0) return Infinity;
  const rowBytes = GHOSTTY_ROW_HEADER_BYTES + GHOSTTY_CELL_BYTES * Math.max(1, cols);
  const scrollbackRows = Math.ceil(Math.max(scrollbackBytes, GHOSTTY_MIN_SCROLLBACK_BYTES) / rowBytes);
  // Up to `rows` LFs only move the cursor down to the bottom row, `rows` more scroll the screen's rows out of it.
  return scrollbackRows + 2 * rows;
}

export interface SkimPlan {
  /** Bytes [0, cut) are skipped: they go to the output ring, not to the emulator. */
  cut: number;
  /** What the emulator parses in their place: the SGR sequences that set the pen at the cut, then CR LF. */
  digest: Uint8Array;
}

const ESC = 0x1b;
const LF = 0x0a;
const CR = 0x0d;
/**
 * SO and SI switch the character set, and ENQ asks for an answerback: the
 * only C0 controls besides ESC that a skim would lose something of. The rest
 * leave the pen, modes and charsets alone: CR, TAB and BS move the cursor
 * along its row, LF, VT and FF down it (never up), NUL and DEL are ignored,
 * and BEL is the PTY host's scanner's to report, which sees every byte,
 * skimmed or not.
 */
const STATEFUL_CONTROLS = [0x05, 0x0e, 0x0f];
/** The lead byte of U+0080-U+00BF: followed by 0x80-0x9F it is a C1 control, which a parser may act on. */
const UTF8_C2 = 0xc2;
const CSI_FINAL_SGR = 0x6d; // m
const CR_LF = [CR, LF];

/**
 * The longest skim that `bytes`, a backlog starting between sequences, allows
 * while leaving `keepLines` plain lines unskipped; null when it would be
 * shorter than `minBytes` (not worth a message of its own). The plan is
 * mostly indexOf searches: a caller with Node's Buffer should pass one, whose
 * searches are memchr.
 */
export function planSkim(bytes: Uint8Array, keepLines: number, minBytes: number): SkimPlan | null {
  if (!Number.isFinite(keepLines)) return null;
  // Too few lines in the whole backlog: known without scanning it.
  const cutAtEnd = cutBefore(bytes, bytes.length, keepLines);
  if (cutAtEnd < minBytes) return null;
  const plain = scanPlainRun(bytes);
  const cut = plain.end === bytes.length ? cutAtEnd : cutBefore(bytes, plain.end, keepLines);
  if (cut < minBytes) return null;
  return { cut, digest: sgrDigest(bytes, plain.sgrStarts, cut) };
}

interface PlainRun {
  /** Where the first byte that is not plain output starts (bytes.length when all of it is). */
  end: number;
  /** Offsets of the SGR sequences in [0, end), in order. */
  sgrStarts: number[];
}

/**
 * Found with indexOf (native loops) rather than byte by byte: plain runs are
 * nearly all text, and stepping through them in JavaScript costs a noticeable
 * fraction of what parsing them would.
 */
function scanPlainRun(bytes: Uint8Array): PlainRun {
  let end = bytes.length;
  for (const control of STATEFUL_CONTROLS) {
    const at = bytes.indexOf(control);
    if (at !== -1 && at < end) end = at;
  }
  for (let at = bytes.indexOf(UTF8_C2); at !== -1 && at < end; at = bytes.indexOf(UTF8_C2, at + 1)) {
    const next = at + 1 < bytes.length ? bytes[at + 1] : -1;
    if (next === -1 || (next >= 0x80 && next <= 0x9f)) end = at;
  }
  const sgrStarts: number[] = [];
  for (let at = bytes.indexOf(ESC); at !== -1 && at < end; at = bytes.indexOf(ESC, at + 1)) {
    if (sgrEnd(bytes, at) === -1) end = at;
    else sgrStarts.push(at);
  }
  return { end, sgrStarts };
}

/** Just past the SGR sequence (ESC [ digits ; : ... m) that starts at `at`, or -1 if it is anything else or unfinished. */
function sgrEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at + 1] !== 0x5b) return -1;
  for (let i = at + 2; i < bytes.length; i++) {
    const byte = bytes[i];
    if ((byte >= 0x30 && byte <= 0x39) || byte === 0x3b || byte === 0x3a) continue;
    return byte === CSI_FINAL_SGR ? i + 1 : -1;
  }
  return -1;
}

/** Just past the LF that has `keepLines` more LFs after it before `end`, or 0 if there is none. */
function cutBefore(bytes: Uint8Array, end: number, keepLines: number): number {
  let at = end;
  for (let kept = 0; kept <= keepLines; kept++) {
    at = at > 0 ? bytes.lastIndexOf(LF, at - 1) : -1;
    if (at === -1) return 0;
  }
  return at + 1;
}

/** The SGR sequences before `cut` that the pen at the cut depends on, then CR LF. */
function sgrDigest(bytes: Uint8Array, sgrStarts: number[], cut: number): Uint8Array {
  let last = sgrStarts.length;
  while (last > 0 && sgrStarts[last - 1] >= cut) last--;
  let first = last;
  while (first > 0 && !startsWithReset(bytes, sgrStarts[first - 1])) first--;
  if (first > 0) first--; // the reset itself
  const spans: Array<[number, number]> = [];
  let size = CR_LF.length;
  for (let index = first; index < last; index++) {
    const end = sgrEnd(bytes, sgrStarts[index]);
    spans.push([sgrStarts[index], end]);
    size += end - sgrStarts[index];
  }
  const digest = new Uint8Array(size);
  let offset = 0;
  for (const [start, end] of spans) {
    digest.set(bytes.subarray(start, end), offset);
    offset += end - start;
  }
  digest.set(CR_LF, offset);
  return digest;
}

/** ESC [ m, ESC [ 0 m, ESC [ 0 ; ..., ESC [ ; ...: the pen is reset before anything else it sets. */
function startsWithReset(bytes: Uint8Array, at: number): boolean {
  let i = at + 2;
  while (bytes[i] === 0x30) i++;
  return bytes[i] === CSI_FINAL_SGR || bytes[i] === 0x3b;
}
