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
 * Whether a pattern matches without ever backtracking: no quantifier, no
 * alternation, no backreference or lookaround, so each start position costs
 * at most one step per pattern character. Such a pattern (a prompt, a marker
 * such as "ready>" or "\$ $") can be matched inline on any thread; anything
 * else may take minutes (".*.*.*.*X") and goes to a matcher thread
 * (src/workers/pattern-matcher.ts). A cheap syntactic check: a false "false"
 * only costs a hop to that thread.
 */
export function matchesWithoutBacktracking(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return false; // a backreference
      i++;
      continue;
    }
    if (char === '[') {
      i = classEnd(pattern, i);
      continue;
    }
    if (char === '(' && pattern[i + 1] === '?') {
      // (?: and (?<name> are plain groups; (?= (?! (?<= (?<! look around.
      if (pattern[i + 2] === ':') i += 2;
      else if (/^<[A-Za-z_$]/.test(pattern.slice(i + 2, i + 4)) && pattern.includes('>', i)) i = pattern.indexOf('>', i);
      else return false;
      continue;
    }
    if ('*+?{|'.includes(char)) return false;
  }
  return true;
}

/** The index of the `]` closing the class that opens at `start` (or the last index when it never closes); in JavaScript "[]" is an empty class. */
function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length - 1;
}
