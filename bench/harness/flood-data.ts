/**
 * Deterministic flood data, one generator per scenario. Same seed, same bytes on
 * every machine and every run, so figures compare across runs and baselines
 * parse exactly what patterm parsed.
 *
 * Lines end in "\n" as real programs print them; the PTY's ONLCR turns that into
 * "\r\n", and the in-process baselines are fed that cooked form (see cookForPty).
 */

export type DatasetName = 'ascii' | 'sgr' | 'unicode' | 'scroll-regions' | 'cursor-motion' | 'mixed' | 'many-styles';

/** Panes are this size in every contender, so all emulators do the same work. */
export const BENCH_COLS = 120;
export const BENCH_ROWS = 40;

/** Bump when a generator changes, so cached files are regenerated. */
export const GENERATOR_VERSION = 5;

/** Small, fast, seedable PRNG (mulberry32): deterministic and good enough for text. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const int = (random: Random, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(random: Random, items: readonly T[]) => items[Math.floor(random() * items.length)];

const WORDS = 'the request handler worker queue cache build test compile module error warning info debug trace socket stream buffer render frame layout token agent session pane child process signal exit status index ready'.split(' ');
const LEVELS = ['INFO ', 'DEBUG', 'WARN ', 'ERROR', 'TRACE'];

function words(random: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += (i ? ' ' : '') + pick(random, WORDS);
  return out;
}

/** Log-like ASCII lines, 20 to ~200 columns: some wrap at 120, as real logs do. */
function asciiLine(random: Random, n: number): string {
  const ms = String(n % 1000).padStart(3, '0');
  return `2025-01-01T12:${String((n >> 10) % 60).padStart(2, '0')}:${String((n >> 4) % 60).padStart(2, '0')}.${ms}Z ${pick(random, LEVELS)} [worker-${n % 16}] ${words(random, int(random, 2, 26))} id=${(n * 2654435761) >>> 0}\n`;
}

/**
 * A colour theme as highlighters, test runners and agent CLIs use one: 16-colour,
 * 256-colour and truecolour foregrounds, some with a background or attributes.
 * Bounded on purpose (THEME_SIZE styles): ghostty-web 0.4.0 degrades on output
 * with hundreds of distinct styles (see 'many-styles'), and that pathology gets
 * its own dataset rather than hiding inside the SGR parse figure.
 */
const THEME_SIZE = 48;
function theme(random: Random): string[] {
  const styles: string[] = [];
  for (let i = 0; i < THEME_SIZE; i++) {
    const kind = i % 3;
    let sgr = kind === 0 ? `${int(random, 30, 37)}` : kind === 1 ? `38;5;${int(random, 16, 231)}` : `38;2;${int(random, 0, 255)};${int(random, 0, 255)};${int(random, 0, 255)}`;
    if (i % 5 === 0) sgr += `;48;5;${int(random, 232, 255)}`;
    if (i % 4 === 1) sgr += pick(random, [';1', ';3', ';4', ';2', ';7']);
    styles.push(`\x1b[0;${sgr}m`);
  }
  return styles;
}

/** Dense colour, as in syntax-highlighted diffs and test runners: a style change every one to three words. */
function sgrLine(random: Random, styles: string[]): string {
  let line = '';
  const segments = int(random, 4, 14);
  for (let i = 0; i < segments; i++) line += pick(random, styles) + words(random, int(random, 1, 3)) + ' ';
  return line + '\x1b[0m\n';
}

/**
 * Stress data: every style change is a fresh random truecolour foreground,
 * background and attribute mix (gradients, ANSI art, lolcat). On ghostty-web
 * 0.4.0 this makes WASM memory grow without bound (~12-25 MB per MB) and
 * parsing spiky-slow; patterm's figures on it show what its pane workers do
 * about that.
 */
function manyStylesLine(random: Random): string {
  let line = '';
  const segments = int(random, 4, 14);
  for (let i = 0; i < segments; i++) {
    line += `\x1b[38;2;${int(random, 0, 255)};${int(random, 0, 255)};${int(random, 0, 255)}${random() < 0.3 ? `;48;5;${int(random, 0, 255)}` : ''}${random() < 0.3 ? pick(random, [';1', ';4', ';7']) : ''}m`;
    line += words(random, int(random, 1, 3)) + ' ';
  }
  return line + '\x1b[0m\n';
}

// Ranges chosen to be wide (CJK, Hangul, emoji presentation) or to combine.
// Graphemes (a combining mark, a VS16 emoji) come at about one per line, as in
// real CLI output: ghostty-web 0.4.0 traps every few hundred scrolled lines when
// they are denser (measured: ~430 lines at 7 per line), and patterm's figure
// would then measure its trap recovery rather than its parsing. No ZWJ
// sequences, for the same reason.
const CJK = [0x4e00, 0x9fa5];
const HANGUL = [0xac00, 0xd7a3];
const EMOJI = [0x1f600, 0x1f64f];
const COMBINING = [0x0300, 0x036f];
const VS16_EMOJI = ['\u2714\ufe0f', '\u2764\ufe0f', '\u26a0\ufe0f', '\u2699\ufe0f'];

function unicodeLine(random: Random): string {
  let line = '';
  const pieces = int(random, 6, 24);
  for (let i = 0; i < pieces; i++) {
    const kind = int(random, 0, 19);
    if (kind < 6) for (let k = int(random, 1, 6); k > 0; k--) line += String.fromCodePoint(int(random, CJK[0], CJK[1]));
    else if (kind < 10) for (let k = int(random, 1, 4); k > 0; k--) line += String.fromCodePoint(int(random, HANGUL[0], HANGUL[1]));
    else if (kind < 13) line += String.fromCodePoint(int(random, EMOJI[0], EMOJI[1]));
    else if (kind === 13) line += pick(random, WORDS).replace(/[aeiou]/, (v) => v + String.fromCodePoint(int(random, COMBINING[0], COMBINING[1])));
    else if (kind === 14) line += pick(random, VS16_EMOJI);
    else line += pick(random, WORDS);
    line += ' ';
  }
  return line + '\n';
}

/**
 * vtebench-style scrolling inside regions: set a DECSTBM region, park the cursor
 * on its bottom line and feed lines so every newline scrolls only the region;
 * plus insert/delete-line (IL/DL), which also shift within the region.
 */
function scrollRegionBlock(random: Random, n: number): string {
  const regions = [
    [2, BENCH_ROWS],
    [1, BENCH_ROWS - 1],
    [10, 20],
    [1, BENCH_ROWS],
  ];
  const [top, bottom] = regions[n % regions.length];
  let block = `\x1b[${top};${bottom}r\x1b[${bottom};1H`;
  for (let i = int(random, 20, 60); i > 0; i--) block += `${words(random, int(random, 3, 12))}\n`;
  block += `\x1b[${top};1H\x1b[${int(random, 1, 4)}L${words(random, 4)}\x1b[${int(random, 1, 4)}M`;
  return block + '\x1b[r';
}

/** vtebench-style cursor motion: absolute and relative moves, a few cells written at each, some erases. */
function cursorMotionBlock(random: Random): string {
  let block = '';
  for (let i = 0; i < 32; i++) {
    const move = int(random, 0, 5);
    if (move <= 2) block += `\x1b[${int(random, 1, BENCH_ROWS)};${int(random, 1, BENCH_COLS)}H`;
    else if (move === 3) block += `\x1b[${int(random, 1, 9)}${pick(random, ['A', 'B', 'C', 'D'])}`;
    else if (move === 4) block += `\x1b[${int(random, 1, BENCH_COLS)}G`;
    else block += pick(random, ['\x1b[K', '\x1b[1K', '\x1b[2K', '\x1b[X']);
    block += pick(random, WORDS).slice(0, int(random, 1, 6));
  }
  return block;
}

/** The mix the first flood bench used: plain log text with SGR-coloured lines in between. */
function mixedLine(random: Random, n: number, styles: string[]): string {
  return n % 3 === 0 ? sgrLine(random, styles) : asciiLine(random, n);
}

const SEEDS: Record<DatasetName, number> = { ascii: 1, sgr: 2, unicode: 3, 'scroll-regions': 4, 'cursor-motion': 5, mixed: 6, 'many-styles': 7 };

/**
 * Yields the dataset as strings of roughly `chunkChars`, until `targetBytes` of
 * UTF-8 have been produced (cut at a unit boundary, never inside a sequence).
 */
export function* generate(name: DatasetName, targetBytes: number, chunkChars = 1 << 20): Generator<string> {
  const random = prng(SEEDS[name]);
  const styles = theme(random);
  let produced = 0;
  let n = 0;
  let chunk = '';
  while (produced < targetBytes) {
    let unit: string;
    switch (name) {
      case 'ascii': unit = asciiLine(random, n); break;
      case 'sgr': unit = sgrLine(random, styles); break;
      case 'many-styles': unit = manyStylesLine(random); break;
      case 'unicode': unit = unicodeLine(random); break;
      case 'scroll-regions': unit = scrollRegionBlock(random, n); break;
      case 'cursor-motion': unit = cursorMotionBlock(random); break;
      case 'mixed': unit = mixedLine(random, n, styles); break;
    }
    n++;
    const bytes = name === 'unicode' ? Buffer.byteLength(unit) : unit.length; // the others are pure ASCII
    if (produced + bytes > targetBytes && produced > 0) break;
    produced += bytes;
    chunk += unit;
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** What a PTY with default termios (ONLCR) emits for these bytes: every "\n" becomes "\r\n". */
export function cookForPty(raw: Uint8Array): Uint8Array {
  let newlines = 0;
  for (let i = raw.indexOf(10); i !== -1; i = raw.indexOf(10, i + 1)) newlines++;
  const out = new Uint8Array(raw.length + newlines);
  let from = 0;
  let to = 0;
  for (let i = raw.indexOf(10); i !== -1; i = raw.indexOf(10, i + 1)) {
    out.set(raw.subarray(from, i), to);
    to += i - from;
    out[to++] = 13;
    out[to++] = 10;
    from = i + 1;
  }
  out.set(raw.subarray(from), to);
  return out;
}
