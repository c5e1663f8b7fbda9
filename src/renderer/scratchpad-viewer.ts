/**
 * The full-screen scratchpad reader's state: which scratchpad, how far it is
 * scrolled, and the text wrapped to the main area's width. Read-only: it never
 * edits the file. Its content is the shown scratchpad's 'preview' message,
 * which the bridge resends whenever the file changes, so the view follows an
 * agent's rewrites while keeping the reader's place.
 */
import { graphemes } from './text-width.js';

export interface ViewerLine {
  text: string;
  /** A markdown heading (or a wrapped part of one): drawn bold. */
  heading: boolean;
}

/** A tab is shown as this many spaces, as in the rail's preview. */
const TAB = '  ';
/** Plain ASCII wraps by length; anything else goes through grapheme widths. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export class ScratchpadViewer {
  /** Index of the first wrapped line on screen. */
  private top = 0;
  /** The furthest `top` can go, as of the last draw (the document's length less a screenful). */
  private maxTop = 0;
  private wrapped: { text: string; width: number; lines: ViewerLine[] } | null = null;

  constructor(readonly name: string) {}

  get scroll(): number {
    return this.top;
  }

  /** The text wrapped to `width` columns; kept until the text or the width changes. */
  lines(text: string, width: number): ViewerLine[] {
    if (this.wrapped?.text !== text || this.wrapped.width !== width) this.wrapped = { text, width, lines: wrap(text, width) };
    return this.wrapped.lines;
  }

  /** Called by the view with the current screenful; a shorter document pulls the view back up. */
  fitTo(totalLines: number, rows: number): void {
    this.maxTop = Math.max(0, totalLines - rows);
    this.top = Math.min(this.top, this.maxTop);
  }

  scrollBy(delta: number): void {
    this.top = Math.max(0, Math.min(this.maxTop, this.top + delta));
  }

  scrollToStart(): void {
    this.top = 0;
  }

  scrollToEnd(): void {
    this.top = this.maxTop;
  }
}

export function wrap(text: string, width: number): ViewerLine[] {
  const out: ViewerLine[] = [];
  const cols = Math.max(1, width);
  let fenced = false;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/\t/g, TAB);
    // A "#" inside a code block is a comment, not a heading.
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s/.test(line);
    if (line === '') {
      out.push({ text: '', heading: false });
      continue;
    }
    if (PRINTABLE_ASCII.test(line)) {
      for (let at = 0; at < line.length; at += cols) out.push({ text: line.slice(at, at + cols), heading });
      continue;
    }
    let part = '';
    let used = 0;
    for (const g of graphemes(line)) {
      if (used + g.width > cols && part !== '') {
        out.push({ text: part, heading });
        part = '';
        used = 0;
      }
      part += g.text;
      used += g.width;
    }
    out.push({ text: part, heading });
  }
  // A file ending in a newline has no empty last line to show.
  if (out.length > 1 && out[out.length - 1].text === '' && text.endsWith('\n')) out.pop();
  return out;
}
