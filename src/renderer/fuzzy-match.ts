/**
 * Fuzzy matching for the palette: every query character must appear in order;
 * matches at word starts and in runs score higher, so "sw" finds "Switch…"
 * before "Spawn agent: swe-bot" and "bash" ranks "Run process: bash" first.
 */

export interface FuzzyMatch {
  score: number;
  /** Indices in the label of the matched characters, for highlighting. */
  positions: number[];
}

const WORD_START_BONUS = 8;
const RUN_BONUS = 5;
/** A match at the very start of the label is the strongest hint of what was meant. */
const FIRST_CHAR_BONUS = 6;
/** Later matches are worth slightly less, so shorter, earlier matches win ties. */
const DISTANCE_PENALTY = 0.1;

function isWordStart(label: string, index: number): boolean {
  if (index === 0) return true;
  const before = label[index - 1];
  const here = label[index];
  return /[\s:\-_/.(]/.test(before) || (before === before.toLowerCase() && here !== here.toLowerCase());
}

export function fuzzyMatch(query: string, label: string): FuzzyMatch | null {
  const needle = query.toLowerCase().replace(/\s+/g, '');
  if (needle === '') return { score: 0, positions: [] };
  const hay = label.toLowerCase();
  // Word-start occurrences read best; if preferring them strands a later character, plain
  // first occurrences still find every label that contains the query in order.
  const positions = locate(needle, hay, label, true) ?? locate(needle, hay, label, false);
  if (!positions) return null;
  let score = 0;
  positions.forEach((found, i) => {
    if (isWordStart(label, found)) score += WORD_START_BONUS;
    if (i > 0 && found === positions[i - 1] + 1) score += RUN_BONUS;
    if (found === 0) score += FIRST_CHAR_BONUS;
    score -= found * DISTANCE_PENALTY;
  });
  return { score, positions };
}

function locate(needle: string, hay: string, label: string, preferWordStarts: boolean): number[] | null {
  const positions: number[] = [];
  let from = 0;
  for (const char of needle) {
    const previous = positions[positions.length - 1];
    let found = previous !== undefined && hay[previous + 1] === char ? previous + 1 : -1;
    if (found === -1 && preferWordStarts) {
      for (let i = from; i < hay.length; i++) {
        if (hay[i] === char && isWordStart(label, i)) {
          found = i;
          break;
        }
      }
    }
    if (found === -1) found = hay.indexOf(char, from);
    if (found === -1) return null;
    positions.push(found);
    from = found + 1;
  }
  return positions;
}

/** Items that match, best first; ties keep their original order. */
export function fuzzyFilter<T>(query: string, items: readonly T[], label: (item: T) => string): Array<{ item: T; match: FuzzyMatch }> {
  const matched: Array<{ item: T; match: FuzzyMatch; order: number }> = [];
  items.forEach((item, order) => {
    const match = fuzzyMatch(query, label(item));
    if (match) matched.push({ item, match, order });
  });
  matched.sort((a, b) => b.match.score - a.match.score || a.order - b.order);
  return matched.map(({ item, match }) => ({ item, match }));
}
