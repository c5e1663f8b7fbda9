/**
 * Replies to terminal queries that ghostty-web 0.4.0 leaves unanswered.
 * Programs such as vim, less, top and the vendor agent CLIs send these at start-up
 * and some block (or wait out a timeout) until they hear back, so every query we
 * recognise gets an answer shaped like a modern xterm-compatible terminal's.
 */
import type { TerminalQuery } from './sequence-scanner.js';

export interface TerminalStateView {
  rows: number;
  cols: number;
  cursorX: number;
  cursorY: number;
  /** null when the emulator does not know the mode (DECRQM answers 0). */
  modeState(mode: number, dec: boolean): boolean | null;
}

export const TERMINAL_NAME = 'patterm';

/** VT220-class with ANSI colour (22): what ghostty and most xterm-likes report. */
const DA1_REPLY = '\x1b[?62;22c';
/** Terminal type 1 (VT220), firmware 10, ROM 0: the ghostty/xterm-like shape. */
const DA2_REPLY = '\x1b[>1;10;0c';
const DA3_REPLY = '\x1bP!|00000000\x1b\\';
/** Nominal cell size for pixel reports; a headless pane has no real font metrics. */
const CELL_WIDTH_PX = 8;
const CELL_HEIGHT_PX = 16;

/** The xterm 256-colour palette, used to answer OSC 4 queries. */
export function paletteColor(index: number): [number, number, number] {
  const base16: [number, number, number][] = [
    [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
    [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
  ];
  if (index < 16) return base16[index];
  if (index < 232) {
    const i = index - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return [level(Math.floor(i / 36)), level(Math.floor(i / 6) % 6), level(i % 6)];
  }
  const gray = 8 + (index - 232) * 10;
  return [gray, gray, gray];
}

export const DEFAULT_FOREGROUND: [number, number, number] = [229, 229, 229];
export const DEFAULT_BACKGROUND: [number, number, number] = [0, 0, 0];

function xColor([r, g, b]: [number, number, number]): string {
  const hex = (v: number) => v.toString(16).padStart(2, '0').repeat(2);
  return `rgb:${hex(r)}/${hex(g)}/${hex(b)}`;
}

export function replyToQuery(query: TerminalQuery, state: TerminalStateView, version: string): string | null {
  switch (query.kind) {
    case 'da1':
      return DA1_REPLY;
    case 'da2':
      return DA2_REPLY;
    case 'da3':
      return DA3_REPLY;
    case 'xtversion':
      return `\x1bP>|${TERMINAL_NAME}(${version})\x1b\\`;
    case 'decrqm': {
      const known = state.modeState(query.mode, query.dec);
      const value = known === null ? 0 : known ? 1 : 2;
      return `\x1b[${query.dec ? '?' : ''}${query.mode};${value}$y`;
    }
    case 'kitty-keyboard':
      // We do not forward the kitty protocol; flags 0 tells the program to use legacy keys.
      return '\x1b[?0u';
    case 'cursor-position-dec':
      return `\x1b[?${state.cursorY + 1};${state.cursorX + 1}R`;
    case 'window-report':
      if (query.op === 18) return `\x1b[8;${state.rows};${state.cols}t`;
      if (query.op === 19) return `\x1b[9;${state.rows};${state.cols}t`;
      if (query.op === 14) return `\x1b[4;${state.rows * CELL_HEIGHT_PX};${state.cols * CELL_WIDTH_PX}t`;
      return `\x1b[6;${CELL_HEIGHT_PX};${CELL_WIDTH_PX}t`;
    case 'decrqss':
      // "Invalid request": programs fall back to their defaults.
      return '\x1bP0$r\x1b\\';
    case 'xtgettcap':
      return `\x1bP0+r${query.names}\x1b\\`;
    case 'color': {
      const rgb =
        query.target === 'background' ? DEFAULT_BACKGROUND
        : query.target === 'palette' ? paletteColor(Math.min(255, query.index ?? 0))
        : DEFAULT_FOREGROUND;
      const prefix = query.target === 'palette' ? `4;${query.index}` : String(query.osc);
      return `\x1b]${prefix};${xColor(rgb)}\x1b\\`;
    }
  }
}
