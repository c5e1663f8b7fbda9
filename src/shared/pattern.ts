/**
 * Compiles a caller-supplied regex for screen matching. Stateful flags (g, y)
 * are dropped because one RegExp is reused across checks; anything else that
 * JavaScript rejects comes back as an error naming the pattern.
 */
const ALLOWED_FLAGS = new Set(['i', 'm', 's', 'u']);
/** Patterns longer than this are almost certainly a mistake, and costly on every screen change. */
export const MAX_PATTERN_LENGTH = 4096;

export class PatternError extends Error {
  override readonly name = 'PatternError';
}

export function compilePattern(pattern: string, flags = ''): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new PatternError(`pattern is ${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}`);
  }
  const kept = [...new Set(flags)].filter((flag) => ALLOWED_FLAGS.has(flag)).join('');
  try {
    return new RegExp(pattern, kept.includes('m') ? kept : kept + 'm');
  } catch (error) {
    throw new PatternError(`pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message}`);
  }
}

/**
 * Whether a pattern can backtrack exponentially, so its matching must run
 * under a time budget (src/node/regex-budget.ts) instead of inline. True for
 * a repeated group that itself repeats or alternates ("(a+)+", "(.|\s)*"),
 * and for backreferences and lookarounds, which are hard to judge. Anything
 * else backtracks at most polynomially in the line length, and the callers
 * bound that length. A cheap syntactic check: a false "true" only costs the
 * budget's small overhead per match.
 */
export function mayBacktrackExponentially(pattern: string): boolean {
  /** Per open group: whether it holds a quantifier or an alternation. */
  const groups: { repeats: boolean }[] = [{ repeats: false }];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return true; // backreference
      i++;
      continue;
    }
    if (char === '[') {
      i = classEnd(pattern, i);
      continue;
    }
    if (char === '(') {
      if (/^\?<?[=!]/.test(pattern.slice(i + 1, i + 4))) return true; // lookahead or lookbehind
      groups.push({ repeats: false });
      continue;
    }
    if (char === '|') {
      groups[groups.length - 1].repeats = true;
      continue;
    }
    if (char === ')') {
      const closed = groups.length > 1 ? groups.pop()! : { repeats: false };
      const quantifier = quantifierAt(pattern, i + 1);
      if (quantifier.repeats && closed.repeats) return true;
      if (quantifier.repeats || closed.repeats) groups[groups.length - 1].repeats = true;
      i += quantifier.length;
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (quantifier.length > 0) {
      if (quantifier.repeats) groups[groups.length - 1].repeats = true;
      i += quantifier.length - 1;
    }
  }
  return false;
}

/** The index of the `]` closing the class that opens at `start` (or the last index when it never closes); in JavaScript "[]" is an empty class. */
function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length - 1;
}

/** The quantifier starting at `at` (with its lazy "?"), and whether it can repeat more than once. */
function quantifierAt(pattern: string, at: number): { length: number; repeats: boolean } {
  const char = pattern[at];
  let length = 0;
  let repeats = false;
  if (char === '*' || char === '+') {
    length = 1;
    repeats = true;
  } else if (char === '?') {
    length = 1;
  } else if (char === '{') {
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (braces) {
      length = braces[0].length;
      const most = braces[2] === undefined ? Number(braces[1]) : braces[3] === '' ? Infinity : Number(braces[3]);
      repeats = most > 1;
    }
  }
  if (length > 0 && pattern[at + length] === '?') length++;
  return { length, repeats };
}
