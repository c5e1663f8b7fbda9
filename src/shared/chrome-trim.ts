/**
 * Best-effort removal of a vendor CLI's chrome (banner, input box, footer) from
 * a grid read (read_output's trim_chrome), so the caller gets the conversation. The
 * rules come from the preset's chrome_trim_hints; a rule that does not match
 * cleanly removes nothing, because trimming real content is worse than
 * leaving some chrome in. The rules' patterns are the preset author's, so
 * this runs on a pattern matcher thread (src/node/pattern-matcher.ts).
 */
import type { ChromeTrimRule } from './preset-schema.js';
import { compilePattern } from './pattern.js';

export interface TrimResult {
  lines: string[];
  /** 0-based rows of the input that were dropped, ascending. */
  trimmedRows: number[];
}

const compiled = new Map<string, RegExp>();
/** Rules are reused on every read; compile each pattern once. */
function regex(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = compilePattern(pattern);
    compiled.set(pattern, re);
  }
  return re;
}

const test = (pattern: string, line: string) => regex(pattern).test(line);

function rowsFor(rule: ChromeTrimRule, lines: string[]): number[] {
  switch (rule.kind) {
    case 'match':
      return lines.flatMap((line, row) => (test(rule.pattern, line) ? [row] : []));
    case 'rows': {
      const at = (n: number) => (n < 0 ? lines.length + n : n);
      const from = Math.max(0, at(rule.from));
      const to = Math.min(lines.length - 1, at(rule.to));
      return from <= to ? range(from, to) : [];
    }
    case 'block': {
      const start = lines.findIndex((line) => test(rule.start, line));
      if (start === -1) return [];
      const end = lines.findIndex((line, row) => row > start && test(rule.end, line));
      return end === -1 ? [] : range(start, end);
    }
    case 'from_last': {
      const lowest = rule.within_bottom === undefined ? 0 : lines.length - rule.within_bottom;
      for (let row = lines.length - 1; row >= Math.max(0, lowest); row--) {
        if (!test(rule.pattern, lines[row])) continue;
        if (rule.followed_by !== undefined) {
          const next = lines.findIndex((line, r) => r > row && line.trim() !== '');
          if (next === -1 || !test(rule.followed_by, lines[next])) continue;
        }
        let top = Math.max(0, row - (rule.above ?? 0));
        if (rule.above_while !== undefined) while (top > 0 && test(rule.above_while, lines[top - 1])) top--;
        return range(top, lines.length - 1);
      }
      return [];
    }
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export function trimChrome(lines: string[], rules: readonly ChromeTrimRule[] | undefined): TrimResult {
  if (!rules || rules.length === 0) return { lines: [...lines], trimmedRows: [] };
  const dropped = new Set<number>();
  for (const rule of rules) for (const row of rowsFor(rule, lines)) dropped.add(row);
  return {
    lines: lines.filter((_, row) => !dropped.has(row)),
    trimmedRows: [...dropped].sort((a, b) => a - b),
  };
}
