/**
 * The matching a caller's pattern asks for, as it runs on a pattern matcher
 * thread (pattern-matcher.ts): unbounded here, because the thread is
 * terminated when a match runs past its budget. Never call these on a thread
 * that serves anything else.
 */
import { stripAnsi } from '../shared/ansi-strip.js';
import { trimChrome, type TrimResult } from '../shared/chrome-trim.js';
import type { ChromeTrimRule } from '../shared/preset-schema.js';
import { compilePattern } from '../shared/pattern.js';
import { matchScreenPatterns, type ScreenPatternMatches, type ScreenPatternRules } from '../shared/agent-state.js';
import { streamLines, type StreamLinesResult } from './cpu-tasks.js';

/** A caller's regex as it came: its source and flags. */
export interface PatternSpec {
  pattern: string;
  flags: string;
}

/** Where a pattern first matched a text. */
export interface TextMatch {
  index: number;
  length: number;
}

/** A line one of several patterns matched first: `which` indexes the patterns. */
export interface LineHit {
  which: number;
  line: string;
}

/**
 * Only this much of a line is matched by firstLineHits. A ready or error line
 * is far shorter, and an endless line must not make every check longer.
 */
export const MAX_CHECKED_LINE = 4096;

export type MatchTask =
  | ({ op: 'search'; text: string } & PatternSpec)
  | { op: 'firstLineHits'; patterns: (PatternSpec | null)[]; rawLines: string[] }
  | ({ op: 'filterStream'; bytes: Uint8Array } & PatternSpec)
  | { op: 'trimChrome'; lines: string[]; rules: readonly ChromeTrimRule[] }
  | ({ op: 'screenPatterns'; lines: readonly string[]; rules: ScreenPatternRules } & Tracked)
  | ({ op: 'firstMatching'; patterns: PatternSpec[]; text: string } & Tracked);

/** A task that notes which of its patterns it runs, so an overrun can be blamed on that one. */
export interface Tracked {
  /** Slot 0: the number of the pattern running now (shared with the owner, which reads it when the budget runs out). */
  reached: Int32Array;
}

export type MatchTaskResult = TextMatch | null | LineHit[] | StreamLinesResult | TrimResult | ScreenPatternMatches | number;

/** Compiled patterns by flags and source: a wait re-checks one pattern on every screen change. */
const compiled = new Map<string, RegExp>();
/** More distinct patterns than this at once is unusual; the cache starts over rather than grow. */
const MAX_COMPILED = 64;

export function regexFor(spec: PatternSpec): RegExp {
  const key = `${spec.flags}/${spec.pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    regex = compilePattern(spec.pattern, spec.flags);
    compiled.set(key, regex);
  }
  return regex;
}

export function runMatchTask(task: MatchTask): MatchTaskResult {
  switch (task.op) {
    case 'search':
      return search(task, task.text);
    case 'firstLineHits':
      return firstLineHits(task.patterns, task.rawLines);
    case 'filterStream':
      return streamLines({ bytes: task.bytes, pattern: task.pattern, flags: task.flags });
    case 'trimChrome':
      return trimChrome(task.lines, task.rules);
    case 'screenPatterns':
      return matchScreenPatterns(task.rules, task.lines, compileCached, noteReached(task.reached));
    case 'firstMatching':
      return firstMatching(task.patterns, task.text, noteReached(task.reached));
  }
}

/** compilePattern through the cache: a pane's preset patterns are matched again on every screen change. */
export const compileCached = (pattern: string, flags: string): RegExp => regexFor({ pattern, flags });

function noteReached(reached: Int32Array): (which: number) => void {
  return (which) => Atomics.store(reached, 0, which);
}

/** The index of the first of `patterns` that matches `text`, or -1; `reached` hears each index before its pattern runs. */
export function firstMatching(patterns: readonly PatternSpec[], text: string, reached: (which: number) => void = () => {}): number {
  return patterns.findIndex((spec, which) => {
    reached(which);
    return regexFor(spec).test(text);
  });
}

/** Where `spec` first matches `text`, or null. */
export function search(spec: PatternSpec, text: string): TextMatch | null {
  const regex = regexFor(spec);
  regex.lastIndex = 0;
  const match = regex.exec(text);
  return match ? { index: match.index, length: match[0].length } : null;
}

/** The first line (ANSI-stripped, cut to MAX_CHECKED_LINE) each pattern matches, in the order they matched. */
function firstLineHits(patterns: (PatternSpec | null)[], rawLines: string[]): LineHit[] {
  const regexes = patterns.map((spec) => (spec ? regexFor(spec) : null));
  const pending = new Set(regexes.flatMap((regex, which) => (regex ? [which] : [])));
  const hits: LineHit[] = [];
  for (const rawLine of rawLines) {
    for (const whole of stripAnsi(rawLine).split('\n')) {
      const line = whole.slice(0, MAX_CHECKED_LINE);
      for (const which of pending) {
        if (!regexes[which]!.test(line)) continue;
        hits.push({ which, line });
        pending.delete(which);
      }
      if (pending.size === 0) return hits;
    }
  }
  return hits;
}
