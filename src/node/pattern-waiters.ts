/**
 * Pending `wait_for_pattern` requests for one pane. Event-driven: each waiter is
 * re-checked when the screen changes (not on a poll), plus one timer for its
 * deadline and, with `stableMs`, one for the end of the quiet period. The
 * matching runs on a pattern matcher thread (pattern-matcher.ts), never on the
 * thread that owns the screen, so a caller's pathological pattern costs that
 * caller its budget and stalls nothing else.
 */
import type { WaitRequest, WaitResult } from '../shared/pane-types.js';
import { compilePattern } from '../shared/pattern.js';
import type { BoundedMatch, PatternMatcher } from './pattern-matcher.js';
import type { PatternSpec, TextMatch } from './pattern-tasks.js';

interface ScreenSource {
  version(): number;
  lines(): string[];
}

interface Waiter {
  id: string | undefined;
  spec: PatternSpec;
  absent: boolean;
  stableMs: number;
  startedAt: number;
  deadline: ReturnType<typeof setTimeout>;
  stableTimer: ReturnType<typeof setTimeout> | null;
  heldSince: number | null;
  heldVersion: number;
  lastSnippet: string;
  /** A check is on the matcher thread; screen changes meanwhile ask for one more after it. */
  checking: boolean;
  recheck: boolean;
  /** The deadline passed while a check was out: that check still decides (a wait with no time left gets one). */
  expired: boolean;
  resolve: (result: WaitResult) => void;
}

/** How many trailing non-empty lines a non-matching result shows. */
const TAIL_LINES = 5;

export class PatternWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly screen: ScreenSource,
    private readonly matcher: PatternMatcher,
  ) {}

  /** Waits pending; the pane ticks faster while anyone waits. */
  get count(): number {
    return this.waiters.size;
  }

  /** Ends the wait named `id` now, unmatched; unknown or finished ids are ignored. */
  cancel(id: string): void {
    for (const waiter of this.waiters) if (waiter.id === id) this.finish(waiter, false);
  }

  add(request: WaitRequest): Promise<WaitResult> {
    // Compiled here only to throw for an invalid pattern at once; the matcher thread compiles its own.
    compilePattern(request.pattern, request.flags);
    return new Promise<WaitResult>((resolve) => {
      const waiter: Waiter = {
        id: request.id,
        spec: { pattern: request.pattern, flags: request.flags ?? '' },
        absent: request.absent === true,
        stableMs: Math.max(0, request.stableMs ?? 0),
        startedAt: performance.now(),
        deadline: setTimeout(() => this.expire(waiter), Math.max(0, request.timeoutMs)),
        stableTimer: null,
        heldSince: null,
        heldVersion: -1,
        lastSnippet: '',
        checking: false,
        recheck: false,
        expired: false,
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
    if (waiter.checking) {
      waiter.recheck = true;
      return;
    }
    waiter.checking = true;
    const lines = this.screen.lines();
    const version = this.screen.version();
    const text = lines.join('\n');
    void this.matcher
      .search(waiter.spec, text)
      .catch((error: Error): BoundedMatch<TextMatch | null> => ({ ok: false, problem: `the pattern matcher failed: ${error.message}` }))
      .then((found) => {
        waiter.checking = false;
        if (!this.waiters.has(waiter)) return;
        if (!found.ok) return this.finish(waiter, false, found.problem);
        this.settle(waiter, found.value, text, lines, version);
        if (waiter.expired) this.finish(waiter, false);
        else if (waiter.recheck) {
          waiter.recheck = false;
          this.check(waiter);
        }
      });
  }

  private expire(waiter: Waiter): void {
    if (waiter.checking) waiter.expired = true;
    else this.finish(waiter, false);
  }

  /** Acts on one check's outcome: `match` in `text`, the screen at `version`. */
  private settle(waiter: Waiter, match: TextMatch | null, text: string, lines: string[], version: number): void {
    const holds = waiter.absent ? match === null : match !== null;
    waiter.lastSnippet = match ? snippetAround(text, match.index, match.length) : tail(lines);
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
