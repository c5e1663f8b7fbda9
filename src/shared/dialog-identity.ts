/**
 * When two readings of a dialog's text are the same dialog. A CLI redraws its
 * dialog while it waits (a spinner turns, a timer counts, the selection
 * marker moves, the user types into its field), and none of that is a new
 * question; a dialog that replaces it with other words is.
 */

/**
 * Glyphs that TUIs animate or move about inside a dialog without changing what
 * it asks: arrows, box drawing and block elements (borders, bars), geometric
 * shapes and dingbats (spinners, radio buttons, selection markers such as ❯),
 * braille (spinners), and bullets, dots and ellipses.
 */
const DECORATION = /[\u2190-\u21ff\u2500-\u25ff\u2600-\u27bf\u2800-\u28ff\u2b00-\u2bff\u00b7\u2022\u2023\u2026\u2027\u2039\u203a\u2219\u22c5]/gu;
/** An ASCII spinner frame standing alone (`|`, `/`, `-`, `\`), as a word of its own. */
const ASCII_SPINNER = /(?<=^|\s)[|/\\-](?=\s|$)/g;
/** A selection or check mark in ASCII at the start of a row: `> 1. Yes`, `* item`, `[x] item`, `( ) item`. */
const ROW_MARKER = /^\s*(?:(?:[>*]|\[[ xX*]\]|\([ xX*]\))(?:\s+|$))+/;
const NUMBER = /\d+(?:[.,:]\d+)*/g;
/** A number with its unit, so "59s" and "1m 0s" read alike: both are a time that counts. */
const UNIT = /#\s?(?:ms|secs?|seconds?|mins?|minutes?|hrs?|hours?|[smhdkKMG]|%)(?![A-Za-z])/g;
const NUMBER_RUN = /#(?:\s*#)+/g;

/**
 * The words a dialog's text asks with: digits (counts, timers, countdowns)
 * read as `#`, decoration glyphs dropped, and rows joined with single spaces,
 * so neither a redraw nor a re-wrap at another width changes it.
 */
export function dialogIdentity(text: string): string {
  return text
    .split('\n')
    .map((row) => row.replace(DECORATION, ' ').replace(ROW_MARKER, ' ').replace(ASCII_SPINNER, ' '))
    .join(' ')
    .replace(NUMBER, '#')
    .replace(UNIT, '#')
    .replace(NUMBER_RUN, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether `after` is the dialog `before` still: the same words, or the same
 * words with text typed into (or erased from) one place of it, as an answer
 * typed into the dialog's field. Any other change of its words is another dialog.
 */
export function sameDialog(before: string, after: string): boolean {
  const a = dialogIdentity(before);
  const b = dialogIdentity(after);
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short === '') return false;
  let head = 0;
  while (head < short.length && short[head] === long[head]) head++;
  let tail = 0;
  while (tail < short.length - head && short[short.length - 1 - tail] === long[long.length - 1 - tail]) tail++;
  return head + tail === short.length;
}
