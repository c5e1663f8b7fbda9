/**
 * The only file that talks to ghostty-web. It wraps one GhosttyTerminal on its
 * own WebAssembly instance (so a trap poisons this pane alone) and exposes the
 * screen as raw cell words, plain text and mode flags.
 *
 * ghostty-web's public `getViewport()` builds one JS object per cell; for hashing
 * and rendering we read the same 16-byte cell records straight out of WASM memory.
 */
// '#ghostty-web' is ghostty-web without its embedded WASM copy (scripts/vendor-ghostty.mjs).
import { Ghostty, type GhosttyTerminal } from '#ghostty-web';
import { DEFAULT_COLOR, type CellFrame, type CursorState, type GridCursor, type HistorySlice } from '../shared/pane-types.js';
import { CELL_BYTES, isSpacer, packCells, sameRow, SENTINEL_BG, SENTINEL_FG, textIndexOf } from './cell-records.js';
import { paletteColor } from '../shared/query-replies.js';
import { GRAPHEME_CLUSTERING_MODE, RESTORED_ANSI_MODES, RESTORED_DEC_MODES, serializeScreen, type ModeState, type ScrollbackStyle } from '../shared/screen-serializer.js';
import { historyWindow } from '../shared/history-window.js';
import type { RowHashes } from '../shared/row-numbering.js';
import { logIgnored } from '../node/patterm-log.js';
import { CursorCarrier, type ReflowScreen } from './cursor-reflow.js';
import { endErasedWrap, type WrapCell, type WrapScreen } from './erased-wrap.js';
import { ErasedWrapMatcher } from './erased-wrap-matcher.js';

/** ghostty's render-state dirty levels (ghostty-web's DirtyState, not exported at runtime). */
const DIRTY_NONE = 0;
const DIRTY_FULL = 2;

/**
 * ghostty-web's config takes 0 in a palette slot as "unset" (its default, #1d1f21)
 * but reads only the low 24 bits of a set one: black goes in with a high bit set.
 */
const CONFIG_BLACK = 0x01000000;
const configColor = ([r, g, b]: [number, number, number]) => ((r << 16) | (g << 8) | b) || CONFIG_BLACK;
const PALETTE16 = Array.from({ length: 16 }, (_, i) => configColor(paletteColor(i)));

/**
 * ghostty-web turns grapheme clustering (mode 2027) on in every new terminal;
 * programs assume wcwidth widths, as xterm and tmux give them (a character with
 * VS16 is one cell). Programs that want clustering turn it on themselves.
 */
const GRAPHEME_CLUSTERING_OFF = '\x1b[?2027l';

interface GhosttyInternals {
  exports: Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };
  handle: number;
}

export interface EmulatorOptions {
  cols: number;
  rows: number;
  scrollbackBytes: number;
}

/**
 * The most handed to ghostty-web in one write: the PTY host's batch size
 * (pty-process.ts). One large write of a scrollback full of truecolour styles
 * (a compaction's replay) left ghostty-web 0.4.0 to trap on the next write;
 * the same bytes in writes of this size did not (docs/perf-notes.md).
 */
const MAX_WRITE_BYTES = 64 * 1024;

/** DECOM: with it set, a cursor position counts from the scroll region's corner, which a resize resets. */
const ORIGIN_MODE = 6;

/** The DEC private modes a CellFrame carries (cellFrame), for the host terminal to mirror or paste to follow. */
const FRAME_DEC_MODES = [1, 1000, 1002, 1003, 1004, 1006, 2004];

export class GhosttyEmulator {
  private readonly term: GhosttyTerminal;
  private readonly internals: GhosttyInternals;
  private viewportPtr = 0;
  private viewportBytes = 0;
  /** Each screen row's hash as of the last screenHash(), and the rows ghostty has reported changed since. */
  private rowHashes = new Uint32Array(0);
  private dirtyRows = new Uint8Array(0);
  /** Every row must be hashed again: the first hash, a resize, a full redraw. */
  private allRowsDirty = true;
  /**
   * A copy of the viewport's cell records, taken at most once between changes
   * (writes, resizes). A screen tick hashes the screen and then reads its
   * lines or cells: each read of ghostty's viewport is a WASM copy of the
   * whole screen, and a tick would otherwise make two or three of them.
   */
  private snapshot: Uint32Array | null = null;
  /** Two buffers the snapshots alternate between, so taking one allocates nothing and leaves lineCache's intact. */
  private readonly snapshotBuffers: [Uint32Array, Uint32Array] = [new Uint32Array(0), new Uint32Array(0)];
  /** plainLines()' rows and the snapshot they were built from: rows whose cells did not change are reused. */
  private lineCache: { words: Uint32Array; cols: number; lines: string[] } | null = null;
  private readonly cursorCarrier = new CursorCarrier();
  private readonly erasedWraps = new ErasedWrapMatcher();

  constructor(module: WebAssembly.Module, options: EmulatorOptions) {
    const instance = new WebAssembly.Instance(module, { env: { log: () => undefined } });
    const ghostty = new Ghostty(instance);
    this.term = ghostty.createTerminal(options.cols, options.rows, {
      scrollbackLimit: options.scrollbackBytes,
      fgColor: SENTINEL_FG,
      bgColor: SENTINEL_BG,
      palette: PALETTE16,
    });
    this.internals = this.term as unknown as GhosttyInternals;
    this.term.write(GRAPHEME_CLUSTERING_OFF);
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** Large inputs (a replay, a compaction's picture) go in slices of at most MAX_WRITE_BYTES. */
  write(bytes: Uint8Array): void {
    this.snapshot = null;
    this.cursorCarrier.forget();
    for (let at = 0; at < bytes.length; at += MAX_WRITE_BYTES) this.writeSlice(bytes.subarray(at, at + MAX_WRITE_BYTES));
  }

  /** Writes `slice`, stopping after each erase from the first column to end a soft wrap it erased (erased-wrap.ts); the alternate screen is never reflowed, so not there. */
  private writeSlice(slice: Uint8Array): void {
    let from = 0;
    for (const end of this.erasedWraps.ends(slice)) {
      this.term.write(slice.subarray(from, end));
      from = end;
      if (!this.isAlternateScreen()) endErasedWrap(this.wrapScreen());
    }
    if (from < slice.length) this.term.write(from === 0 ? slice : slice.subarray(from));
  }

  /**
   * `carryCursor`: the parser is between sequences and characters, so the
   * cursor may be moved by writing to it (see cursor-reflow.ts); a change of
   * width on the primary screen needs it. The alternate screen is not reflowed.
   */
  resize(cols: number, rows: number, carryCursor = true): void {
    const reflows = carryCursor && cols !== this.term.cols && !this.isAlternateScreen() && !this.getMode(ORIGIN_MODE, true);
    this.cursorCarrier.resize(() => this.reflowScreen(), () => {
      this.term.resize(cols, rows);
      this.snapshot = null;
      this.viewportPtr = 0; // ghostty-web frees its own buffers on resize; ours is re-sized lazily.
      this.allRowsDirty = true;
    }, reflows);
  }

  /** The screen as cursor-reflow.ts reads and moves it. */
  private reflowScreen(): ReflowScreen {
    return {
      cols: this.term.cols,
      rows: this.term.rows,
      cursor: () => this.cursor(),
      // One cell, not the viewport: reading the whole screen would cost a resize more than the rest of the carrying.
      codepoint: (x, y) => this.term.getGrapheme(y, x)?.[0] ?? 0,
      continuesAbove: (y) => this.term.isRowWrapped(y),
      decMode: (mode) => this.getMode(mode, true),
      send: (sequence) => {
        this.snapshot = null;
        this.term.write(sequence);
      },
    };
  }

  /** The screen as erased-wrap.ts reads and mends it. */
  private wrapScreen(): WrapScreen {
    return {
      cols: this.term.cols,
      cursor: () => this.cursor(),
      continuesAbove: (y) => this.term.isRowWrapped(y),
      decMode: (mode) => this.getMode(mode, true),
      cell: (x, y) => this.wrapCell(x, y),
      send: (sequence) => {
        this.snapshot = null;
        this.term.write(sequence);
      },
    };
  }

  private wrapCell(x: number, y: number): WrapCell {
    const index = y * this.term.cols + x;
    const raw = this.rawCells();
    const linked = (raw[index * 4 + 3] & 0xffff) !== 0;
    const multiCodepoint = ((raw[index * 4 + 3] >>> 16) & 0xff) > 0;
    const cell = packCells(raw.subarray(index * 4, index * 4 + 4), 1, () => undefined);
    return {
      text: cell[0] === 0 ? '' : multiCodepoint ? this.term.getGraphemeString(y, x) : String.fromCodePoint(cell[0]),
      fg: cell[1],
      bg: cell[2],
      flags: cell[3] & 0xff,
      width: (cell[3] >>> 8) & 0xff,
      linked,
    };
  }

  /** Replies the emulator generated itself (DSR), in order. */
  takeResponses(): string[] {
    const out: string[] = [];
    while (this.term.hasResponse()) {
      const reply = this.term.readResponse();
      if (reply === null) break;
      out.push(reply);
    }
    return out;
  }

  /** Syncs the render state; true when anything may have changed since the last call. */
  syncDirty(): boolean {
    const state = this.term.update();
    if (state === DIRTY_NONE) return false;
    const rows = this.term.rows;
    if (state === DIRTY_FULL || this.dirtyRows.length !== rows) this.allRowsDirty = true;
    else {
      const ex = this.internals.exports;
      for (let y = 0; y < rows; y++) if (ex.ghostty_render_state_is_row_dirty(this.internals.handle, y)) this.dirtyRows[y] = 1;
    }
    this.term.markClean();
    return true;
  }

  /** Rows in the scrollback (none on the alternate screen, which hides it). */
  scrollbackLength(): number {
    return this.isAlternateScreen() ? 0 : this.term.getScrollbackLength();
  }

  cursor(): CursorState {
    const ex = this.internals.exports;
    const h = this.internals.handle;
    this.term.update();
    return {
      x: ex.ghostty_render_state_get_cursor_x(h),
      y: ex.ghostty_render_state_get_cursor_y(h),
      visible: ex.ghostty_render_state_get_cursor_visible(h) !== 0,
    };
  }

  /** The cursor, with its index in its row's text (see GridCursor.textIndex). */
  gridCursor(): GridCursor {
    const cursor = this.cursor();
    const words = this.viewport();
    return { ...cursor, textIndex: textIndexOf(words, this.term.cols, cursor, (col) => this.cellText(words, cursor.y, col)) };
  }

  isAlternateScreen(): boolean {
    return this.term.isAlternateScreen();
  }

  getMode(mode: number, dec: boolean): boolean {
    return this.term.getMode(mode, !dec);
  }

  /** The viewport's cell records (CELL_BYTES each), as of the last change. Shared: read it, never write to it. */
  private viewport(): Uint32Array {
    if (this.snapshot) return this.snapshot;
    const raw = this.rawCells();
    const slot = this.snapshotBuffers[0] === this.lineCache?.words ? 1 : 0;
    if (this.snapshotBuffers[slot].length !== raw.length) this.snapshotBuffers[slot] = new Uint32Array(raw.length);
    this.snapshotBuffers[slot].set(raw);
    this.snapshot = this.snapshotBuffers[slot];
    return this.snapshot;
  }

  /** A view of the raw cell records in WASM memory. Valid until the next emulator call. */
  private rawCells(): Uint32Array {
    const count = this.term.cols * this.term.rows;
    const bytes = count * CELL_BYTES;
    const ex = this.internals.exports;
    if (!this.viewportPtr || this.viewportBytes < bytes) {
      if (this.viewportPtr) ex.ghostty_wasm_free_u8_array(this.viewportPtr, this.viewportBytes);
      this.viewportPtr = ex.ghostty_wasm_alloc_u8_array(bytes);
      this.viewportBytes = bytes;
    }
    this.term.update();
    ex.ghostty_render_state_get_viewport(this.internals.handle, this.viewportPtr, count);
    return new Uint32Array(ex.memory.buffer, this.viewportPtr, count * 4);
  }

  /**
   * FNV-1a over every row's cell words, the cursor and the active screen. Only
   * rows ghostty reported dirty (syncDirty) are hashed again: a spinner
   * redrawing one line of a 120x40 screen costs one row, not 40 (hashing the
   * whole screen was a quarter of an animating pane's CPU). `everyRow` hashes
   * them all regardless: the reference the tests hold the shortcut to.
   */
  screenHash(everyRow = false): number {
    if (everyRow) this.allRowsDirty = true;
    const words = this.viewport();
    const rows = this.term.rows;
    const rowWords = this.term.cols * 4;
    if (this.rowHashes.length !== rows || this.dirtyRows.length !== rows) {
      this.rowHashes = new Uint32Array(rows);
      this.dirtyRows = new Uint8Array(rows);
      this.allRowsDirty = true;
    }
    let hash = 0x811c9dc5;
    for (let y = 0; y < rows; y++) {
      if (this.allRowsDirty || this.dirtyRows[y]) {
        let row = 0x811c9dc5;
        for (let i = y * rowWords, end = i + rowWords; i < end; i++) row = Math.imul(row ^ words[i], 0x01000193);
        this.rowHashes[y] = row;
      }
      hash = Math.imul(hash ^ this.rowHashes[y], 0x01000193);
    }
    this.dirtyRows.fill(0);
    this.allRowsDirty = false;
    hash = Math.imul(hash ^ this.cursorKey(), 0x01000193);
    hash = Math.imul(hash ^ this.frameModeBits(), 0x01000193);
    hash = Math.imul(hash ^ (this.isAlternateScreen() ? 1 : 2), 0x01000193);
    return hash >>> 0;
  }

  /**
   * What a frame carries besides its cells (see cellFrame): the cursor and the
   * modes the host terminal mirrors. ghostty's dirty tracking (syncDirty)
   * flags none of it by itself: a cursor moved along its row, shown or hidden,
   * or a mode set with nothing drawn.
   */
  frameStateKey(): number {
    return this.cursorKey() + this.frameModeBits() * 2 ** 25;
  }

  private cursorKey(): number {
    const c = this.cursor();
    return c.x | (c.y << 12) | (c.visible ? 1 << 24 : 0);
  }

  private frameModeBits(): number {
    let bits = this.term.hasMouseTracking() ? 1 : 0;
    for (let i = 0; i < FRAME_DEC_MODES.length; i++) if (this.getMode(FRAME_DEC_MODES[i], true)) bits |= 2 << i;
    return bits;
  }

  /**
   * The visible screen as text: one string per row, wide characters once,
   * trailing blanks trimmed. Rows whose cells are unchanged since the last
   * call are reused (building every row costs as much as a viewport read, on
   * each waiter check and grid read); `everyRow` builds them all, the reference the
   * tests hold the reuse to.
   */
  plainLines(everyRow = false): string[] {
    const words = this.viewport();
    const cols = this.term.cols;
    const rowWords = cols * 4;
    const cache = !everyRow && this.lineCache?.cols === cols ? this.lineCache : null;
    const lines: string[] = [];
    for (let row = 0; row < this.term.rows; row++) {
      const start = row * rowWords;
      const reused = cache ? cache.lines[row] : undefined;
      lines.push(reused !== undefined && sameRow(words, cache!.words, start, rowWords) ? reused : this.rowText(words, row));
    }
    this.lineCache = { words, cols, lines };
    return lines;
  }

  private rowText(words: Uint32Array, row: number): string {
    let line = '';
    for (let col = 0; col < this.term.cols; col++) if (!isSpacer(words, row * this.term.cols + col)) line += this.cellText(words, row, col);
    return line.trimEnd();
  }

  /** One screen cell's text: its grapheme whole, a space when empty. */
  private cellText(words: Uint32Array, row: number, col: number): string {
    const base = (row * this.term.cols + col) * 4;
    const codepoint = words[base];
    if (codepoint === 0) return ' ';
    if (((words[base + 3] >>> 16) & 0xff) > 0) return this.term.getGraphemeString(row, col);
    return String.fromCodePoint(codepoint);
  }

  /** Cells packed for the renderer (see CellFrame). */
  cellFrame(screenVersion: number): CellFrame {
    const words = this.viewport();
    const cols = this.term.cols;
    const graphemes: Record<number, string> = {};
    const cells = packCells(words, cols * this.term.rows, (i) => {
      graphemes[i] = this.term.getGraphemeString(Math.floor(i / cols), i % cols);
    });
    return {
      rows: this.term.rows,
      cols,
      cells,
      graphemes,
      cursor: this.cursor(),
      activeScreen: this.isAlternateScreen() ? 'alternate' : 'primary',
      screenVersion,
      bracketedPaste: this.getMode(2004, true),
      mouseTracking: this.term.hasMouseTracking(),
      modes: {
        applicationCursor: this.getMode(1, true),
        mouseSgr: this.getMode(1006, true),
        mouseAnyEvent: this.getMode(1003, true),
        mouseButtonEvent: this.getMode(1002, true),
        mouseX10: this.getMode(1000, true),
        focusEvents: this.getMode(1004, true),
      },
    };
  }

  /**
   * Rows `first` .. `first + count` of the primary screen's history: its
   * scrollback followed by the screen itself, packed as a frame the renderer
   * can draw. Rows are numbered from `dropped` (the number of the oldest line
   * kept; see row-numbering.ts); a negative `first` counts from the end. The
   * alternate screen has no history: only itself.
   */
  history(first: number, count: number, dropped = 0): HistorySlice {
    const cols = this.term.cols;
    const screen = this.viewport(); // also brings ghostty's render state up to date
    const scrollback = this.isAlternateScreen() ? 0 : this.term.getScrollbackLength();
    const total = scrollback + this.term.rows;
    const { start, rows } = historyWindow(first, count, total, dropped);
    const words = new Uint32Array(rows * cols * 4);
    const blanks: [number, number][] = []; // cell ranges past a scrollback line's end
    // One WASM buffer for every scrollback line of the call: a search reads thousands of them.
    const ex = this.internals.exports;
    const lineBytes = cols * CELL_BYTES;
    const linePtr = start < scrollback ? ex.ghostty_wasm_alloc_u8_array(lineBytes) : 0;
    try {
      for (let row = 0; row < rows; row++) {
        const line = start + row;
        if (line >= scrollback) {
          words.set(screen.subarray((line - scrollback) * cols * 4, (line - scrollback + 1) * cols * 4), row * cols * 4);
          continue;
        }
        const filled = Math.max(0, Math.min(cols, ex.ghostty_terminal_get_scrollback_line(this.internals.handle, line, linePtr, cols)));
        words.set(new Uint32Array(ex.memory.buffer, linePtr, filled * 4), row * cols * 4);
        if (filled < cols) blanks.push([row * cols + filled, (row + 1) * cols]);
      }
    } finally {
      if (linePtr) ex.ghostty_wasm_free_u8_array(linePtr, lineBytes);
    }
    const graphemes: Record<number, string> = {};
    const cells = packCells(words, rows * cols, (i) => {
      const line = start + Math.floor(i / cols);
      graphemes[i] = line >= scrollback ? this.term.getGraphemeString(line - scrollback, i % cols) : this.term.getScrollbackGraphemeString(line, i % cols);
    });
    for (const [from, to] of blanks) for (let i = from; i < to; i++) cells.set([0, DEFAULT_COLOR, DEFAULT_COLOR, 1 << 8], i * 4);
    const frame: CellFrame = {
      rows,
      cols,
      cells,
      graphemes,
      cursor: { x: 0, y: 0, visible: false },
      activeScreen: this.isAlternateScreen() ? 'alternate' : 'primary',
      screenVersion: 0,
      bracketedPaste: false,
      mouseTracking: false,
      modes: { applicationCursor: false, mouseSgr: false, mouseAnyEvent: false, mouseButtonEvent: false, mouseX10: false, focusEvents: false },
    };
    return { frame, first: dropped + start, total, dropped };
  }

  /**
   * Lends `use` the scrollback's row hashes, oldest first (none on the
   * alternate screen, which hides the scrollback): what RowNumbering follows
   * rows by. Each row is read from WASM when asked for, as a sync needs only
   * a few of them; the hashes are valid only during the call.
   */
  withScrollbackRows<T>(use: (rows: RowHashes) => T): T {
    this.viewport(); // brings ghostty's render state up to date, as history() does, so both see the same rows
    const length = this.isAlternateScreen() ? 0 : this.term.getScrollbackLength();
    const cols = this.term.cols;
    const ex = this.internals.exports;
    const lineBytes = cols * CELL_BYTES;
    const linePtr = ex.ghostty_wasm_alloc_u8_array(lineBytes);
    const at = (line: number): number | undefined => {
      if (line < 0 || line >= length) return undefined;
      const filled = Math.max(0, Math.min(cols, ex.ghostty_terminal_get_scrollback_line(this.internals.handle, line, linePtr, cols)));
      const words = new Uint32Array(ex.memory.buffer, linePtr, filled * 4);
      let hash = 0x811c9dc5;
      // Codepoint, colours, flags, width and grapheme length; the record's padding bytes are not the row's content.
      for (let i = 0; i < words.length; i += 4) {
        hash = Math.imul(hash ^ words[i], 0x01000193);
        hash = Math.imul(hash ^ words[i + 1], 0x01000193);
        hash = Math.imul(hash ^ words[i + 2], 0x01000193);
        hash = Math.imul(hash ^ ((words[i + 3] >>> 16) & 0xff), 0x01000193);
      }
      return hash >>> 0;
    };
    try {
      return use({ length, at });
    } finally {
      ex.ghostty_wasm_free_u8_array(linePtr, lineBytes);
    }
  }

  /** Bytes of WASM memory this emulator's instance holds; it only ever grows (see screen-serializer.ts). */
  wasmMemoryBytes(): number {
    return this.internals.exports.memory.buffer.byteLength;
  }

  /**
   * The visible screen and readable modes as VT bytes that rebuild them in a
   * fresh emulator; with `scrollback` other than 'none', the primary screen's
   * scrollback too, written in that style (see ScrollbackStyle).
   */
  serialize(scrollback: ScrollbackStyle | 'none' = 'none'): string {
    const modes: ModeState = { dec: {}, ansi: {} };
    for (const mode of [...RESTORED_DEC_MODES, GRAPHEME_CLUSTERING_MODE]) modes.dec[mode] = this.getMode(mode, true);
    for (const mode of RESTORED_ANSI_MODES) modes.ansi[mode] = this.getMode(mode, false);
    const scrollbackRows = scrollback !== 'none' && !this.isAlternateScreen() ? this.term.getScrollbackLength() : 0;
    const rows = scrollbackRows > 0 ? this.history(0, scrollbackRows).frame : undefined;
    return serializeScreen(this.cellFrame(0), modes, rows, scrollback === 'none' ? undefined : scrollback);
  }

  dispose(): void {
    try {
      this.term.free();
    } catch (error) {
      // A trapped instance may not free cleanly; the whole instance is dropped anyway.
      logIgnored('freeing an emulator instance', error);
    }
  }
}

