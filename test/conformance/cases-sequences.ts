/**
 * Conformance cases made of escape-sequence streams (see stream-case.ts): each
 * string is one chunk, and the screens are compared after each.
 */
import { KEYCAP_VS16_TODO, type ConformanceCase, type XtermDifference } from './run-case.js';
import type { Screen } from './terminals.js';
import { CSI, ESC, streamCase } from './stream-case.js';

const SMALL = { cols: 20, rows: 8 };
const lines = (count: number, label = 'line') => Array.from({ length: count }, (_, i) => `${label} ${i + 1}`).join('\r\n');

/** SGR on a short sample word, then reset. */
const sgr = (params: string, text = 'Ab') => `${CSI}${params}m${text}${CSI}0m`;

/** xterm's screen after each step where it differs from tmux's: rows by number (unstyled text) and the cursor. */
interface XtermStep {
  rows?: Record<number, string>;
  cursor?: [number, number];
}

function xtermScreens(why: string, steps: XtermStep[]): XtermDifference {
  return {
    why,
    fix: (screen: Screen, step: number): Screen => {
      const { rows = {}, cursor } = steps[step] ?? {};
      const replace = (lines: string[]) => lines.map((line, i) => rows[i] ?? line);
      const [x, y] = cursor ?? [screen.cursor.x, screen.cursor.y];
      return { ...screen, lines: replace(screen.lines), styled: replace(screen.styled), cursor: { ...screen.cursor, x, y } };
    },
  };
}

/** For a case that ends a row on its last column: xterm's cursor stays there, tmux's is reported one past it. */
function parkedPastTheEnd(cols: number): XtermDifference {
  return {
    why: 'tmux parks the cursor past the last column after a character is written there; xterm keeps it on the last column',
    fix: (screen) => ({ ...screen, cursor: { ...screen.cursor, x: Math.min(screen.cursor.x, cols - 1) } }),
  };
}

/** Each sample on its own row, then `|`, then `#` at column 12: the gap between `|` and `#` shows the sample's width. */
const widthSamples = (samples: string[]) => samples.map((sample) => `${sample}|${CSI}12G#`).join('\r\n');

export const SEQUENCE_CASES: ConformanceCase[] = [
  streamCase('long lines wrap and scroll', SMALL, [
    `${'a'.repeat(45)}\r\n${'b'.repeat(20)}\r\nc`,
    `${'d'.repeat(20)}X`,
    `\r\n${lines(10)}`,
  ]),
  streamCase('DECSTBM scrolls only the region; RI at its top scrolls it down', SMALL, [
    `${lines(8)}${CSI}3;6r${CSI}6;1H\nnew 1\nnew 2`,
    `${CSI}3;1H${ESC}M${ESC}Mtop`,
    `${CSI}r${CSI}8;1H\nafter reset`,
  ]),
  streamCase('IL and DL inside and outside a scroll region', SMALL, [
    `${lines(8)}${CSI}3;2H${CSI}2L${CSI}6;1H${CSI}M`,
    `${CSI}2;7r${CSI}4;1H${CSI}3L${CSI}7;1H${CSI}2M${CSI}r`,
  ]),
  streamCase('SU and SD, whole screen and in a region', SMALL, [
    `${lines(8)}${CSI}2S`,
    `${CSI}3T`,
    `${CSI}3;6r${CSI}2S${CSI}1T${CSI}r`,
  ]),
  streamCase('DECOM puts the home position at the region top and confines the cursor', SMALL, [
    `${lines(8)}${CSI}3;6r${CSI}?6h${CSI}Hhome${CSI}9;1Hlow${CSI}?6l`,
    `${CSI}Hscreen home${CSI}r`,
  ]),
  streamCase('alternate screen 1049 saves the cursor and clears; its exit restores both', SMALL, [
    `${lines(4, 'main')}`,
    `${CSI}?1049hon alt${CSI}5;5Hthere`,
    `${CSI}?1049l`,
  ]),
  streamCase('alternate screen 47 keeps the cursor where it was', SMALL, [
    `${lines(4, 'main')}${CSI}2;3H`,
    `${CSI}?47halt 47`,
    `${CSI}?47l`,
  ]),
  streamCase('alternate screen 1047 is cleared on exit', SMALL, [
    `${lines(4, 'main')}`,
    `${CSI}?1047halt 1047${CSI}3;3H`,
    `${CSI}?1047l${CSI}?1047h`,
    `${CSI}?1047l`,
  ]),
  streamCase('16 colours, foreground and background, and their bright forms', { cols: 40, rows: 8 }, [
    [31, 32, 33, 34, 35, 36, 37].map((n) => sgr(String(n))).join(' ') + '\r\n' +
    [41, 42, 43, 44, 45, 46, 47].map((n) => sgr(String(n))).join(' ') + '\r\n' +
    [90, 91, 92, 93, 94, 95, 96, 97].map((n) => sgr(String(n))).join(' ') + '\r\n' +
    [100, 101, 102, 103, 104, 105, 106, 107].map((n) => sgr(String(n))).join(' '),
  ]),
  streamCase('256 colours 1 to 255 as foreground and background', { cols: 64, rows: 18 }, [
    Array.from({ length: 255 }, (_, i) => `${CSI}38;5;${i + 1}m${CSI}48;5;${255 - i}m${(i + 1) % 10}`).join('') + `${CSI}0m`,
    Array.from({ length: 255 }, (_, i) => `${CSI}38:5:${i + 1}m#`).join('') + `${CSI}0m`,
  ]),
  streamCase('truecolour foreground and background', { cols: 40, rows: 8 }, [
    Array.from({ length: 32 }, (_, i) => `${CSI}38;2;${i * 8};${255 - i * 8};${(i * 37) % 256}m${CSI}48;2;${(i * 53) % 256};${i * 4};90m*`).join('') + `${CSI}0m`,
    `${CSI}38:2::10:200:30mcolon form${CSI}0m`,
  ]),
  streamCase('attributes: bold, dim, italic, underline, blink, inverse, invisible, strikethrough', { cols: 40, rows: 8 }, [
    ['1', '2', '3', '4', '5', '7', '8', '9', '1;3;4', '4:3', '7;31;42'].map((params) => sgr(params, `x${params}`)).join(' '),
    `${CSI}1mbold${CSI}22m off ${CSI}4munder${CSI}24m off ${CSI}7minv${CSI}27m off`,
  ]),
  streamCase('palette colour 0 (black) as SGR 30, 40 and 38;5;0', { cols: 30, rows: 4 }, [`${sgr('30;47', 'black on white')} ${sgr('40', 'bg')} ${sgr('38;5;0;107', 'idx0')}`]),
  streamCase('overline', { cols: 30, rows: 4 }, [`${sgr('53', 'over')} plain`], {
    todo: 'ghostty-web 0.4.0\'s cell record has no overline flag (its flags byte is full)',
  }),
  streamCase('CJK, combining marks and plain emoji', { cols: 20, rows: 8 }, [
    ['日本語のテキスト', 'e\u0301te\u0301 a\u0308 n\u0303', '한국어 中文', '😀 ok 🎉'].map((sample) => `${sample}|${CSI}18G#`).join('\r\n') + '\r\n' + 'x'.repeat(19) + '漢字',
    `${CSI}1;3H${CSI}2@${CSI}2;1H${CSI}1P`,
  ]),
  // Text shows a wide character once, so each sample is followed by `|` and a `#` at a fixed column: the gap between shows its width.
  streamCase('emoji with a variation selector or a skin tone, a zero-width space', { cols: 24, rows: 6 }, [widthSamples(['❤️', '☺️', '👍🏽', 'a\u200bb'])]),
  streamCase('a keycap emoji (digit, VS16, U+20E3)', { cols: 24, rows: 4 }, [widthSamples(['1️⃣', '#️⃣'])], {
    todo: KEYCAP_VS16_TODO,
  }),
  streamCase('a ZWJ sequence', { cols: 24, rows: 4 }, [widthSamples(['👨‍👩‍👧'])], {
    xterm: xtermScreens('tmux 3.3a joins a ZWJ sequence into one 2-cell character; xterm, going by wcwidth, gives each emoji its 2 cells', [
      { rows: { 0: `👨‍👩‍👧|${' '.repeat(4)}#` } },
    ]),
  }),
  streamCase('insert mode, ICH, DCH, ECH, tabs and DECSC/DECRC', { cols: 30, rows: 6 }, [
    `abcdefghij${CSI}1;3H${CSI}4hXY${CSI}4l\r\n1\t2\t3\r\n${CSI}3;1Habcdefghij${CSI}3;2H${CSI}2P${CSI}3X`,
    `${ESC}7${CSI}5;5Hsaved${ESC}8here`,
  ]),
  // After a line printed to the last column, xterm keeps the cursor on that column with a wrap pending; tmux parks it one past the end.
  streamCase('a line to the last column, then EL', { cols: 10, rows: 4 }, ['abcdefghij', `${CSI}K`, '!'], {
    xterm: xtermScreens('tmux parks the cursor past the last column, so its EL erases nothing and the next character wraps; xterm erases the last column and writes there', [
      { cursor: [9, 0] },
      { rows: { 0: 'abcdefghi' }, cursor: [9, 0] },
      { rows: { 0: 'abcdefghi!', 1: '' }, cursor: [9, 0] },
    ]),
  }),
  streamCase('a line to the last column, then BS', { cols: 10, rows: 4 }, ['abcdefghij', '\b', '!'], {
    xterm: xtermScreens('tmux parks the cursor past the last column, so BS lands on the last column; xterm moves from the last column to the one before', [
      { cursor: [9, 0] },
      { cursor: [8, 0] },
      { rows: { 0: 'abcdefgh!j' }, cursor: [9, 0] },
    ]),
  }),
  streamCase('a line to the last column, then CUB', { cols: 10, rows: 4 }, ['abcdefghij', `${CSI}2D`, '!'], {
    xterm: xtermScreens('tmux parks the cursor past the last column, so CUB counts from there; xterm counts from the last column', [
      { cursor: [9, 0] },
      { cursor: [7, 0] },
      { rows: { 0: 'abcdefg!ij' }, cursor: [8, 0] },
    ]),
  }),
  streamCase('erases with a background colour (ED, EL, ECH), REP, DECALN', { cols: 20, rows: 8 }, [
    `${lines(8)}${CSI}44m${CSI}2;3H${CSI}1K${CSI}3;3H${CSI}K${CSI}4;5H${CSI}3X${CSI}6;4H${CSI}1J${CSI}0m`,
    `${CSI}7;1H${CSI}41m${CSI}J${CSI}0m${CSI}8;1Hab${CSI}5b`,
    `${ESC}#8${CSI}3;3Hover the Es`,
  ]),
  streamCase('tab stops (HTS, TBC, CBT), HPA, VPA, CNL, CPL and a hidden cursor', { cols: 30, rows: 8 }, [
    `a\tb\tc${CSI}3g${CSI}1;5H${ESC}H${CSI}1;12H${ESC}H\r\n\tx\ty\tz`,
    `${CSI}3;1H\t\tq${CSI}1Zw${CSI}20\`h${CSI}6dv${CSI}2Ecnl${CSI}3Fcpl`,
    `${CSI}?25l`,
  ], { xterm: parkedPastTheEnd(30) }),
  streamCase('CHT moves to the nth next tab stop', { cols: 30, rows: 4 }, [`${CSI}2Ix${CSI}3Iy\r\n${CSI}I${CSI}Iz`], {
    xterm: xtermScreens('tmux 3.3a ignores CHT (CSI I); xterm moves the cursor forward by that many tab stops', [
      { rows: { 0: `${' '.repeat(16)}x${' '.repeat(12)}y`, 1: `${' '.repeat(16)}z` }, cursor: [17, 1] },
    ]),
  }),
  streamCase('left and right margins (DECLRMM, DECSLRM) confine wrapping and scrolling', { cols: 12, rows: 4 }, [
    `${CSI}?69h${CSI}3;8s${CSI}1;3Habcdefghijkl${CSI}4;3H\n${CSI}?69l`,
  ], {
    xterm: xtermScreens('tmux 3.3a has no left and right margins; in xterm text wraps at the right margin to the left one, and a scroll moves only the columns between', [
      { rows: { 0: '  ghijkl', 1: '', 2: '', 3: '' }, cursor: [2, 3] },
    ]),
  }),
  // Rows: an overwrite of a wide character's right half, an ICH before one, an ECH on one's right half, and one that does not fit the last column.
  streamCase('wide characters cut by an overwrite or an erase, pushed by ICH, wrapped at the edge', { cols: 12, rows: 5 }, [
    `漢字かな${CSI}1;2Hx\r\n漢字かな${CSI}2;3H${CSI}1@\r\n漢字かな${CSI}3;4H${CSI}1X\r\n${'a'.repeat(11)}漢`,
  ], {
    xterm: xtermScreens('tmux 3.3a leaves the left half of a wide character standing when its right half is written over or erased; xterm blanks the whole character', [
      { rows: { 0: ' x字かな', 2: '漢  かな' } },
    ]),
  }),
  streamCase('DECSC/DECRC restore the pen and origin mode; IND, NEL and RI at the margins', { cols: 20, rows: 8 }, [
    `${CSI}1;31m${ESC}7${CSI}0mplain${ESC}8red?${CSI}0m\r\n${lines(6)}${CSI}2;5r${CSI}5;1H${ESC}Dind${ESC}Enel${CSI}2;1H${ESC}Mri${CSI}r`,
    `${CSI}3;6r${CSI}?6h${ESC}7${CSI}?6l${CSI}1;1H${ESC}8saved-in-origin${CSI}?6l${CSI}r`,
  ]),
  streamCase('SGR extras: double and styled underline, underline colour, 22 after bold and dim', { cols: 30, rows: 4 }, [
    `${sgr('21', 'dbl')} ${sgr('4:2', 'dbl2')} ${sgr('4;58;5;196', 'ucol')} ${CSI}1;2mbd${CSI}22mnone${CSI}0m ${sgr('1;7;8', 'hid')}`,
  ]),
  streamCase('a tab over wide characters; a wide character at the last column with autowrap off', { cols: 12, rows: 4 }, [
    `漢\t字\tx\r\n${CSI}?7l${'a'.repeat(11)}漢字${CSI}?7h\r\nnext`,
  ]),
  streamCase('CUP and cursor moves beyond the screen, in and out of origin mode', { cols: 20, rows: 8 }, [
    `${CSI}99;99Hx${CSI}0;0Hy${CSI}3;6r${CSI}?6h${CSI}99;1Hz${CSI}10Aw${CSI}?6l${CSI}r${CSI}5;5H${CSI}99Cq${CSI}99Bp`,
  ], { xterm: parkedPastTheEnd(20) }),
  streamCase('combining marks after a wide character and at column 0; insert mode before wide characters', { cols: 16, rows: 5 }, [
    `漢\u0301字\r\n\u0301x\r\nab漢字${CSI}3;2H${CSI}4hZ${CSI}4l\r\n`,
  ]),
  streamCase('LNM makes LF a new line; mode 1048 saves and restores the cursor', { cols: 16, rows: 6 }, [
    `${CSI}20hone\ntwo${CSI}20l\nthree${CSI}2;2H${CSI}?1048h${CSI}6;6H${CSI}?1048lX`,
  ], {
    xterm: xtermScreens('tmux 3.3a ignores mode 1048; xterm saves the cursor on 1048h and restores it on 1048l, as DECSC and DECRC', [
      { rows: { 1: 'tXo', 5: '' }, cursor: [2, 1] },
    ]),
  }),
  streamCase('1049 twice, an invalid scroll region, LF below the region, SU past the region', { cols: 16, rows: 6 }, [
    `${lines(6)}`,
    `${CSI}?1049hA${CSI}?1049hB${CSI}?1049l`,
    `${CSI}5;3r${CSI}2;4r${CSI}6;1H\n\n\nlow${CSI}1;1H${CSI}9S${CSI}r`,
  ]),
  streamCase('autowrap off (DECAWM) overwrites the last column', { cols: 10, rows: 4 }, [`${CSI}?7l${'abcdefghijklmno'}${CSI}?7h\r\nnext`]),
];
