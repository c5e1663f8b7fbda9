/**
 * Pending `wait_for_pattern` requests for one pane. Event-driven: each waiter is
 * re-checked when the screen changes (not on a poll), plus one timer for its
 * deadline and, with `stableMs`, one for the end of the quiet period.
 */
import type { WaitRequest, WaitResult } from '../shared/pane-types.js';
import { compilePattern, mayBacktrackExponentially } from '../shared/pattern.js';
import { boundedIf } from './regex-budget.js';

interface ScreenSource {
  version(): number;
  lines(): string[];
}

interface Waiter {
  id: string | undefined;
  regex: RegExp;
  /** Its checks run under CHECK_BUDGET_MS. */
  risky: boolean;
  absent: boolean;
  stableMs: number;
  startedAt: number;
  deadline: ReturnType<typeof setTimeout>;
  stableTimer: ReturnType<typeof setTimeout> | null;
  heldSince: number | null;
  heldVersion: number;
  lastSnippet: string;
  resolve: (result: WaitResult) => void;
}

/** How many trailing non-empty lines a non-matching result shows. */
const TAIL_LINES = 5;
/**
 * Longest one check of a screen may take. A screen is a few thousand
 * characters, which a sane pattern matches in well under a millisecond; this
 * bounds how long a pathological one stalls the thread (this pane's worker, or
 * the coordinator for a retired pane) before the wait ends with its problem.
 */
const CHECK_BUDGET_MS = 250;

export class PatternWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly screen: ScreenSource) {}

  /** Waits pending; the pane ticks faster while anyone waits. */
  get count(): number {
    return this.waiters.size;
  }

  /** Ends the wait named `id` now, unmatched; unknown or finished ids are ignored. */
  cancel(id: string): void {
    for (const waiter of this.waiters) if (waiter.id === id) this.finish(waiter, false);
  }

  add(request: WaitRequest): Promise<WaitResult> {
    const regex = compilePattern(request.pattern, request.flags);
    return new Promise<WaitResult>((resolve) => {
      const waiter: Waiter = {
        id: request.id,
        regex,
        risky: mayBacktrackExponentially(request.pattern),
        absent: request.absent === true,
        stableMs: Math.max(0, request.stableMs ?? 0),
        startedAt: performance.now(),
        deadline: setTimeout(() => this.finish(waiter, false), Math.max(0, request.timeoutMs)),
        stableTimer: null,
        heldSince: null,
        heldVersion: -1,
        lastSnippet: '',
        resolve,
      };
      this.waiters.add(waiter);
      this.check(waiter);
    });
  }

  onScreenChanged(): void {
    for (const waiter of this.waiters) this.check(waiter);
  }

  private check(waiter: Waiter): void {
    if (!this.waiters.has(waiter)) return;
    const lines = this.screen.lines();
    const version = this.screen.version();
    const text = lines.join('\n');
    const found = boundedIf(waiter.risky, CHECK_BUDGET_MS, () => {
      waiter.regex.lastIndex = 0;
      return waiter.regex.exec(text);
    });
    if (!found.ok) {
      this.finish(waiter, false, found.problem);
      return;
    }
    const match = found.value;
    const holds = waiter.absent ? match === null : match !== null;
    waiter.lastSnippet = match ? snippetAround(text, match.index, match[0].length) : tail(lines);
    if (!holds) {
      waiter.heldSince = null;
      return;
    }
    if (waiter.stableMs === 0) {
      this.finish(waiter, true);
      return;
    }
    const now = performance.now();
    if (waiter.heldSince === null || waiter.heldVersion !== version) {
      waiter.heldSince = now;
      waiter.heldVersion = version;
    }
    const remaining = waiter.heldSince + waiter.stableMs - now;
    if (remaining <= 0) {
      this.finish(waiter, true);
      return;
    }
    if (waiter.stableTimer) clearTimeout(waiter.stableTimer);
    waiter.stableTimer = setTimeout(() => this.check(waiter), remaining + 1);
  }

  private finish(waiter: Waiter, matched: boolean, patternProblem?: string): void {
    if (!this.waiters.delete(waiter)) return;
    clearTimeout(waiter.deadline);
    if (waiter.stableTimer) clearTimeout(waiter.stableTimer);
    if (!matched) waiter.lastSnippet = tail(this.screen.lines());
    waiter.resolve({
      matched,
      snippet: waiter.lastSnippet,
      screenVersion: this.screen.version(),
      elapsedMs: Math.round(performance.now() - waiter.startedAt),
      ...(patternProblem !== undefined ? { patternProblem } : {}),
    });
  }
}

function snippetAround(text: string, index: number, length: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const endBreak = text.indexOf('\n', index + Math.max(0, length - 1));
  return text.slice(start, endBreak === -1 ? text.length : endBreak);
}

function tail(lines: string[]): string {
  return lines.filter((line) => line.length > 0).slice(-TAIL_LINES).join('\n');
}
