/**
 * Stateless CPU tasks run on the piscina pool (src/main/threads/cpu-pool.ts), off the
 * coordinator thread. Pure functions of their input: no pane state, no I/O,
 * so any pool thread can run any task, and the same code runs inline for
 * small inputs.
 */
import { stripAnsi } from '../shared/ansi-strip.js';
import { compilePattern } from '../shared/pattern.js';
import { foldCase, frameLines } from '../shared/frame-text.js';
import type { CellFrame } from '../shared/pane-types.js';

export interface StreamLinesTask {
  bytes: Uint8Array;
  /**
   * Keep only lines matching this caller's regex (grep-like); null keeps all.
   * Matching is unbounded: with a pattern, this runs on a pattern matcher thread (pattern-matcher.ts).
   */
  pattern: string | null;
  flags: string;
}

export interface StreamLinesResult {
  /** Decoded, ANSI-stripped lines that matched (all lines without a pattern). */
  lines: string[];
  /** Lines before filtering. */
  totalLines: number;
}

/** Decode, strip escape sequences, split into lines (a final newline adds no empty line), filter. */
export function streamLines(task: StreamLinesTask): StreamLinesResult {
  const text = stripAnsi(new TextDecoder().decode(task.bytes));
  const all = text === '' ? [] : text.split('\n');
  if (all.at(-1) === '') all.pop();
  if (task.pattern === null) return { lines: all, totalLines: all.length };
  const regex = compilePattern(task.pattern, task.flags);
  return { lines: all.filter((line) => regex.test(line)), totalLines: all.length };
}

export interface DiffRowsTask {
  before: string[];
  after: string[];
}

/** Rows (0-based) whose text differs between two snapshots. */
export function diffRows(task: DiffRowsTask): number[] {
  const changed: number[] = [];
  for (let row = 0; row < Math.max(task.before.length, task.after.length); row++) {
    if (task.before[row] !== task.after[row]) changed.push(row);
  }
  return changed;
}

export interface FindRowTask {
  /** A pane's history rows (HistorySlice.frame), scrollback then screen. */
  frame: CellFrame;
  /**
   * The row number of the frame's first row (HistorySlice.first): `from` and
   * the answer are row numbers, as the history reader holds them, so rows
   * dropped between the reader's ask and this read do not shift the search.
   */
  first?: number;
  /** Plain text to look for, case-insensitively (what the user typed, not a regex). */
  text: string;
  /** Search rows strictly before (direction -1) or after (+1) this one; a row already dropped searches from the oldest. */
  from: number;
  direction: -1 | 1;
}

/** The nearest row in `direction` whose rendered text contains `text`, or -1. */
export function findRow(task: FindRowTask): number {
  const needle = foldCase(task.text);
  const lines = frameLines(task.frame);
  const first = task.first ?? 0;
  const from = Math.max(-1, Math.min(lines.length, task.from - first));
  for (let row = from + task.direction; row >= 0 && row < lines.length; row += task.direction) {
    if (foldCase(lines[row]).includes(needle)) return first + row;
  }
  return -1;
}
