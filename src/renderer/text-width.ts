/**
 * Cell widths for the text patterm draws itself (tab names, tree labels,
 * palette entries, scratchpad previews). terminal-kit's width tables decide how
 * many columns a grapheme takes, so labels line up and truncate on cell
 * boundaries instead of breaking a wide character in half.
 */
// Only the module that defines stringWidth: terminal-kit's index loads the whole library, most of the renderer's boot.
import { stringWidth } from 'terminal-kit/lib/misc.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

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
  const out: Grapheme[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const code = segment.codePointAt(0) ?? 0;
    // Control characters have no glyph; drawing one would move the host cursor.
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out.push({ text: ' ', width: 1 });
    else out.push({ text: segment, width: Math.min(2, stringWidth(segment)) });
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
