/**
 * Reads rows of text with SGR sequences (`tmux capture-pane -e`, or a pane's
 * styled rows) into one normalized style per character, so two terminals are
 * compared on what a cell looks like, not on how its SGR was spelled: `31`,
 * `38;5;1` and `38;2;205;0;0` are one colour.
 */
import { paletteColor } from '../../src/shared/query-replies.js';

export interface StyledChar {
  /** One code point: both sides are split the same way, so grapheme rules need not agree here. */
  text: string;
  /** `fg/bg/attrs`, colours as #rrggbb or `default`, attrs as sorted SGR numbers (53 is overline). */
  style: string;
}

const hex = ([r, g, b]: [number, number, number]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/**
 * Attributes that show on a blank cell, so a trailing space carrying one is
 * not dropped. A background alone does not count: tmux capture-pane leaves
 * out the cells an erase painted with a background at a row's end, and
 * patterm's cells cannot tell those from spaces written with one.
 */
const VISIBLE_ON_BLANK = [4, 7, 9, 53];

class Pen {
  fg = 'default';
  bg = 'default';
  attrs = new Set<number>();

  reset(): void {
    [this.fg, this.bg, this.attrs] = ['default', 'default', new Set()];
  }

  /** Applies one SGR sequence's parameters (`;`-separated groups, each with its `:` sub-parameters). */
  apply(groups: number[][]): void {
    for (let i = 0; i < groups.length; i++) {
      const [p, ...sub] = groups[i];
      if (p === 0) this.reset();
      else if (p === 4) (sub[0] === 0 ? this.attrs.delete(4) : this.attrs.add(4)); // 4:3 curly and the like are underline here
      // tmux 3.3a's capture-pane spells overline (53) as `5:3`.
      else if (p === 5 && sub[0] === 3) this.attrs.add(53);
      else if ((p >= 1 && p <= 9) || p === 53) this.attrs.add(p);
      else if (p === 21) this.attrs.add(4);
      else if (p === 22) (this.attrs.delete(1), this.attrs.delete(2));
      else if (p >= 23 && p <= 29) this.attrs.delete(p - 20);
      else if (p === 55) this.attrs.delete(53);
      else if (p >= 30 && p <= 37) this.fg = hex(paletteColor(p - 30));
      else if (p >= 90 && p <= 97) this.fg = hex(paletteColor(p - 90 + 8));
      else if (p >= 40 && p <= 47) this.bg = hex(paletteColor(p - 40));
      else if (p >= 100 && p <= 107) this.bg = hex(paletteColor(p - 100 + 8));
      else if (p === 39) this.fg = 'default';
      else if (p === 49) this.bg = 'default';
      else if (p === 38 || p === 48 || p === 58) {
        // Semicolon form (38;5;n, 38;2;r;g;b) takes the next groups; colon form (38:5:n, 38:2::r:g:b) its own.
        const args = sub.length > 0 ? sub : groups.slice(i + 1, i + 5).map((group) => group[0]);
        const rgb = args[0] === 5 ? paletteColor(args[1]) : args.length === 5 && sub.length > 0 ? args.slice(2, 5) : args.slice(1, 4);
        if (sub.length === 0) i += args[0] === 5 ? 2 : 4;
        if (p === 38) this.fg = hex(rgb as [number, number, number]);
        else if (p === 48) this.bg = hex(rgb as [number, number, number]);
      }
    }
  }

  get style(): string {
    return `${this.fg}/${this.bg}/${[...this.attrs].sort((a, b) => a - b).join(',')}`;
  }

  get blank(): boolean {
    return !VISIBLE_ON_BLANK.some((attr) => this.attrs.has(attr));
  }
}

/**
 * Each row's characters with their styles. The pen carries from one row to the
 * next, as capture-pane assumes; trailing spaces that look empty are dropped.
 */
export function styledChars(rows: string[]): StyledChar[][] {
  const pen = new Pen();
  return rows.map((row) => {
    const chars: (StyledChar & { blank: boolean })[] = [];
    row.split(/\x1b\[([0-9;:]*)m/).forEach((part, index) => {
      if (index % 2 === 1) {
        pen.apply(part === '' ? [[0]] : part.split(';').map((group) => group.split(':').map((v) => (v === '' ? 0 : Number(v)))));
        return;
      }
      for (const text of part) chars.push({ text, style: pen.style, blank: text === ' ' && pen.blank });
    });
    let end = chars.length;
    while (end > 0 && chars[end - 1].blank) end--;
    return chars.slice(0, end).map(({ text, style }) => ({ text, style }));
  });
}

/** Where two styled screens differ, one line per row, empty when they look the same. */
export function styleDifferences(expected: string[], actual: string[]): string[] {
  const [want, got] = [styledChars(expected), styledChars(actual)];
  const differences: string[] = [];
  for (let row = 0; row < Math.max(want.length, got.length); row++) {
    const [a, b] = [want[row] ?? [], got[row] ?? []];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i]?.text === b[i]?.text && a[i]?.style === b[i]?.style) continue;
      const describe = (c: StyledChar | undefined) => (c ? `${JSON.stringify(c.text)} ${c.style}` : 'nothing');
      differences.push(`row ${row}, character ${i}: expected ${describe(a[i])}, got ${describe(b[i])}`);
      break;
    }
  }
  return differences;
}
