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
