/**
 * Cell widths for the text patterm draws itself (tab names, tree labels,
 * palette entries, scratchpad previews). terminal-kit's width tables decide how
 * many columns a grapheme takes, so labels line up and truncate on cell
 * boundaries instead of breaking a wide character in half.
 */
import { createRequire } from 'node:module';

/**
 * Code points that are a grapheme of their own and one cell wide, for
 * terminal-kit and Intl.Segmenter alike (text-width.test.ts checks every one
 * against both). Text made only of these (the chrome's labels, box drawing,
 * ASCII names) is measured without either, so the renderer's first frame
 * waits for neither: loading string-kit's tables and creating a segmenter
 * were a large share of the renderer thread's boot (docs/perf-notes.md).
 */
const ALONE_AND_NARROW: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e], // ASCII, without controls
  [0xa0, 0x2ff], // Latin-1 and Latin Extended, up to the combining marks
  [0x2010, 0x205e], // general punctuation (dashes, "…", "‹›")
  [0x2190, 0x21ff], // arrows
  [0x2500, 0x25ff], // box drawing, blocks and geometric shapes
];

function isAloneAndNarrow(code: number): boolean {
  for (const [first, last] of ALONE_AND_NARROW) if (code >= first && code <= last) return true;
  return false;
}

/** Not named `require`, so bundlers leave it to Node. */
const requireHere = createRequire(import.meta.url);

interface WidthTools {
  segmenter: Intl.Segmenter;
  stringWidth: (text: string) => number;
}
let tools: WidthTools | null = null;

/** Loaded on first use (or by loadWidthTables once the first frame is out). */
function widthTools(): WidthTools {
  // Only the module that defines stringWidth: terminal-kit's index loads the whole library.
  tools ??= {
    segmenter: new Intl.Segmenter(undefined, { granularity: 'grapheme' }),
    stringWidth: (requireHere('terminal-kit/lib/misc.js') as typeof import('terminal-kit/lib/misc.js')).stringWidth,
  };
  return tools;
}

/** Loads the width tables ahead of the first text that needs them, so that text's frame does not wait for them. */
export function loadWidthTables(): void {
  widthTools();
}

export interface Grapheme {
  text: string;
  /** 0 (combining only), 1 or 2 cells. */
  width: number;
}

/**
 * The chrome redraws the same labels every frame; segmenting them is the
 * costliest part of composing, so results are kept. Bounded: cleared when full.
 */
const CACHE_LIMIT = 2048;
const cache = new Map<string, Grapheme[]>();

export function graphemes(text: string): Grapheme[] {
  const cached = cache.get(text);
  if (cached) return cached;
  const out = segment(text);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, out);
  return out;
}

function segment(text: string): Grapheme[] {
  const simple = segmentSimple(text);
  if (simple) return simple;
  const { segmenter, stringWidth } = widthTools();
  const out: Grapheme[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const code = segment.codePointAt(0) ?? 0;
    // Control characters have no glyph; drawing one would move the host cursor.
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out.push({ text: ' ', width: 1 });
    else out.push({ text: segment, width: Math.min(2, stringWidth(segment)) });
  }
  return out;
}

/** One narrow grapheme per character, or null when any character needs the width tables. */
function segmentSimple(text: string): Grapheme[] | null {
  const out: Grapheme[] = [];
  for (let i = 0; i < text.length; i++) {
    // Every range is in the BMP, so a surrogate half falls through to the tables.
    if (!isAloneAndNarrow(text.charCodeAt(i))) return null;
    out.push({ text: text[i], width: 1 });
  }
  return out;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const g of graphemes(text)) width += g.width;
  return width;
}

/** Cuts text to at most `maxWidth` cells, ending in "…" when something was cut. */
export function truncate(text: string, maxWidth: number): string {
  if (maxWidth <= 0) return '';
  if (textWidth(text) <= maxWidth) return text;
  let out = '';
  let width = 0;
  for (const g of graphemes(text)) {
    if (width + g.width > maxWidth - 1) break;
    out += g.text;
    width += g.width;
  }
  return out + '…';
}

/** Pads with spaces (or cuts) to exactly `width` cells. */
export function fit(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + ' '.repeat(Math.max(0, width - textWidth(cut)));
}

/** Keeps the end of the text within `maxWidth` cells, starting with "…" when the front was cut. */
export function truncateStart(text: string, maxWidth: number): string {
  if (maxWidth <= 0) return '';
  if (textWidth(text) <= maxWidth) return text;
  const kept: string[] = [];
  let width = 0;
  const all = graphemes(text);
  for (let i = all.length - 1; i >= 0; i--) {
    if (width + all[i].width > maxWidth - 1) break;
    kept.unshift(all[i].text);
    width += all[i].width;
  }
  return '…' + kept.join('');
}
