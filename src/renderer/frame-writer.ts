/**
 * Turns the composed screen into the bytes that update the host terminal:
 * only cells that differ from what is already on screen are drawn, and each
 * frame is wrapped in synchronized output (DEC 2026) so it appears at once.
 */
import { CellBuffer, WORDS_PER_CELL } from './cell-buffer.js';
import { SYNC_BEGIN, SYNC_END } from './host-modes.js';
import { sgr } from './sgr.js';

export interface HostCursor {
  x: number;
  y: number;
  visible: boolean;
  /** DECSCUSR shape; 0 is the terminal's default. */
  shape: number;
}

export interface FrameOutput {
  text: string;
  /** How many cells were drawn (0 when only the cursor moved or nothing changed). */
  cells: number;
}

/** Code points below this are narrow everywhere; past it, host and our width tables may disagree. */
const SAFE_NARROW_LIMIT = 0x300;

export class FrameWriter {
  private front: CellBuffer | null = null;
  private cursor: HostCursor = { x: -1, y: -1, visible: false, shape: 0 };

  /** Forgets what is on screen: the next frame clears and draws everything (after a resize). */
  invalidate(): void {
    this.front = null;
  }

  render(back: CellBuffer, cursor: HostCursor, prefix = ''): FrameOutput {
    const out: string[] = [];
    let full = false;
    if (!this.front || this.front.cols !== back.cols || this.front.rows !== back.rows) {
      this.front = new CellBuffer(back.cols, back.rows);
      out.push('\x1b[0m\x1b[H\x1b[2J');
      full = true;
    }
    const cells = this.drawChanges(back, this.front, out);
    const cursorChanged = cursor.visible !== this.cursor.visible || cursor.shape !== this.cursor.shape || (cursor.visible && (cursor.x !== this.cursor.x || cursor.y !== this.cursor.y));
    if (cells === 0 && !cursorChanged && !full && prefix === '') return { text: '', cells: 0 };

    if (cells > 0 || full) out.push('\x1b[0m');
    if (cursor.shape !== this.cursor.shape) out.push(`\x1b[${cursor.shape} q`);
    if (cursor.visible) out.push(`\x1b[${cursor.y + 1};${cursor.x + 1}H\x1b[?25h`);
    this.cursor = { ...cursor };
    this.front.cells.set(back.cells);
    this.front.graphemes.clear();
    for (const [index, text] of back.graphemes) this.front.graphemes.set(index, text);
    // The cursor is hidden while cells are drawn, so terminals without DEC 2026 show no jumping cursor.
    return { text: SYNC_BEGIN + prefix + '\x1b[?25l' + out.join('') + SYNC_END, cells };
  }

  private drawChanges(back: CellBuffer, front: CellBuffer, out: string[]): number {
    const { cols, rows } = back;
    const next = back.cells;
    const prev = front.cells;
    const checkGraphemes = back.graphemes.size > 0 || front.graphemes.size > 0;
    let penFg = -1;
    let penBg = -1;
    let penFlags = -1;
    let atX = -1;
    let atY = -1;
    let drawn = 0;

    const same = (index: number): boolean => {
      const base = index * WORDS_PER_CELL;
      if (next[base] !== prev[base] || next[base + 1] !== prev[base + 1] || next[base + 2] !== prev[base + 2] || next[base + 3] !== prev[base + 3]) return false;
      return !checkGraphemes || back.graphemes.get(index) === front.graphemes.get(index);
    };

    const draw = (x: number, y: number): number => {
      const index = y * cols + x;
      const base = index * WORDS_PER_CELL;
      const fg = next[base + 1];
      const bg = next[base + 2];
      const flags = next[base + 3] & 0xff;
      const width = (next[base + 3] >>> 8) & 0xff;
      if (atX !== x || atY !== y) out.push(`\x1b[${y + 1};${x + 1}H`);
      if (fg !== penFg || bg !== penBg || flags !== penFlags) {
        out.push(sgr(fg, bg, flags));
        penFg = fg;
        penBg = bg;
        penFlags = flags;
      }
      const codepoint = next[base];
      const cluster = checkGraphemes ? back.graphemes.get(index) : undefined;
      if (cluster !== undefined) out.push(cluster);
      else if (codepoint < 0x20 || (codepoint >= 0x7f && codepoint < 0xa0)) out.push(' ');
      else out.push(String.fromCodePoint(codepoint));
      drawn++;
      const advance = width === 2 ? 2 : 1;
      // After anything beyond Latin, re-position explicitly: the host's width table may differ from ours.
      if (codepoint >= SAFE_NARROW_LIMIT || cluster !== undefined) atX = -1;
      else atX = x + advance;
      atY = y;
      return advance;
    };

    for (let y = 0; y < rows; y++) {
      let x = 0;
      while (x < cols) {
        const index = y * cols + x;
        if (same(index)) {
          x++;
          continue;
        }
        const width = (next[index * WORDS_PER_CELL + 3] >>> 8) & 0xff;
        if (width === 0) {
          // A spacer changed on its own (e.g. restyled): the wide character in front of it covers it.
          if (x > 0 && ((next[(index - 1) * WORDS_PER_CELL + 3] >>> 8) & 0xff) === 2) draw(x - 1, y);
          else draw(x, y);
          x++;
          continue;
        }
        x += draw(x, y);
      }
    }
    return drawn;
  }
}
