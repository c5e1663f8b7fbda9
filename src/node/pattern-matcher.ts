/**
 * Runs callers' regexes (wait_for_pattern, read_output's filter, spawn_process's
 * ready and error patterns, an agent preset's state patterns, the permission
 * policy's allow and deny lists) on threads of their own, each match under a time
 * budget. A JavaScript regex cannot be paused from its own thread, and even
 * polynomial patterns such as ".*.*.*.*X" take minutes on one long line, so a
 * match never runs on a thread that serves anything else (the coordinator, a
 * pane's worker): the thread it runs on is terminated when it overruns (V8
 * interrupts a running regex for that), the caller gets an error naming the
 * pattern and the budget, and a fresh thread takes the next match.
 *
 * Threads start on demand, up to a cap per owner, and end when idle. A match
 * on a warm thread costs one message each way, with no watchdog per match. A
 * search with a pattern that cannot backtrack (a prompt, a marker) on a
 * screenful of text runs inline: it cannot stall, and most waits are such.
 */
import { isMainThread, Worker } from 'node:worker_threads';
import type { StreamLinesResult } from './cpu-tasks.js';
import type { MatchReply, MatchRequest } from './pattern-match-thread.js';
import { matchesWithoutBacktracking } from '../shared/pattern.js';
import type { TrimResult } from '../shared/chrome-trim.js';
import type { ChromeTrimRule } from '../shared/preset-schema.js';
import { compileCached, firstMatching, search, type LineHit, type MatchTask, type PatternSpec, type TextMatch } from './pattern-tasks.js';
import { matchScreenPatterns, screenPatternFields, type ScreenPatternMatches, type ScreenPatternRules } from '../shared/agent-state.js';

/**
 * Longest one match may take: orders of magnitude past what a sane pattern
 * needs on a screen or the largest stream read, and short enough that a
 * caller with a pathological one gets its error while it still waits.
 */
export const PATTERN_BUDGET_MS = 2000;
/**
 * Threads per owner. On the coordinator they serve every agent's ready
 * patterns, exited-pane waits and filters; in a pane's worker only that
 * pane's waits. An overrunning match holds one thread for its budget, and
 * the next caller gets another.
 */
const MAX_THREADS = isMainThread ? 4 : 2;
/**
 * Most steps an inline search may take (pattern characters times text
 * characters, its worst case without backtracking): a few milliseconds, on a
 * screen of 200x50 with a pattern of 400 characters.
 */
const INLINE_SEARCH_STEPS = 4_000_000;
/** A thread idle this long ends; a wait re-checks on every screen change, so a thread is kept between them. */
const IDLE_EXIT_MS = 15_000;
/** The matcher thread's bundle (a WORKER_ENTRIES entry, built beside this file's own bundle or tsc output). */
const THREAD_URL = new URL('../node/pattern-match-thread.bundle.js', import.meta.url);

/** A bounded match: its value, or why it was stopped (`overran`: its budget ran out, so it would again). */
export type BoundedMatch<T> = { ok: true; value: T } | { ok: false; problem: string; overran?: true };

/** A pattern with the name its caller knows it by ("dialogs[0].pattern"), for an overrun's error. */
export interface LabelledPattern extends PatternSpec {
  field: string;
}

interface Job {
  id: number;
  task: MatchTask;
  transfer: ArrayBuffer[];
  budgetMs: number;
  /** The patterns, as named in an overrun's error (a function when it depends on how far the match got). */
  named: string | (() => string);
  resolve: (outcome: BoundedMatch<unknown>) => void;
}

interface MatcherThread {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
}

export class PatternMatcher {
  private readonly threads = new Set<MatcherThread>();
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly options: { maxThreads?: number; idleExitMs?: number; threadUrl?: URL } = {}) {}

  /** Where `spec` first matches `text`, or null. */
  search(spec: PatternSpec, text: string, budgetMs = PATTERN_BUDGET_MS): Promise<BoundedMatch<TextMatch | null>> {
    if (canRunInline([spec], text.length)) {
      return Promise.resolve({ ok: true, value: search(spec, text) });
    }
    return this.run({ op: 'search', ...spec, text }, budgetMs, named([spec]));
  }

  /** The first line each pattern (null: none) matches, in the order they matched (pattern-tasks.ts). */
  firstLineHits(patterns: (PatternSpec | null)[], rawLines: string[], budgetMs = PATTERN_BUDGET_MS): Promise<BoundedMatch<LineHit[]>> {
    return this.run({ op: 'firstLineHits', patterns, rawLines }, budgetMs, named(patterns));
  }

  /** A stream read decoded, stripped and filtered by `spec`; `bytes` is transferred when it owns its whole buffer, so the caller must not use it afterwards. */
  filterStream(spec: PatternSpec, bytes: Uint8Array, budgetMs = PATTERN_BUDGET_MS): Promise<BoundedMatch<StreamLinesResult>> {
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const owned = whole ? bytes : Uint8Array.prototype.slice.call(bytes);
    return this.run({ op: 'filterStream', ...spec, bytes: owned }, budgetMs, named([spec]), [owned.buffer as ArrayBuffer]);
  }

  /** A grid read's lines without the chrome a preset's rules describe (chrome-trim.ts). */
  trimChrome(rules: readonly ChromeTrimRule[], lines: string[], budgetMs = PATTERN_BUDGET_MS): Promise<BoundedMatch<TrimResult>> {
    return this.run({ op: 'trimChrome', rules, lines }, budgetMs, named(chromeRulePatterns(rules)));
  }

  /**
   * What a preset's patterns find on a pane's screen (agent-state.ts); inline
   * when none of them can backtrack. An overrun names the field it ran on.
   */
  screenPatterns(rules: ScreenPatternRules, lines: readonly string[], budgetMs = PATTERN_BUDGET_MS): Promise<BoundedMatch<ScreenPatternMatches>> {
    const fields = screenPatternFields(rules);
    if (canRunInline(fields, lines.reduce((chars, line) => chars + line.length + 1, 0))) {
      return Promise.resolve({ ok: true, value: matchScreenPatterns(rules, lines, compileCached) });
    }
    return this.runTracked((reached) => ({ op: 'screenPatterns', rules, lines, reached }), fields, budgetMs);
  }

  /** The index of the first of `patterns` that matches `text` (-1: none); inline when none can backtrack. */
  firstMatching(patterns: LabelledPattern[], text: string, budgetMs = PATTERN_BUDGET_MS): Promise<BoundedMatch<number>> {
    if (canRunInline(patterns, text.length)) return Promise.resolve({ ok: true, value: firstMatching(patterns, text) });
    const specs = patterns.map(({ pattern, flags }) => ({ pattern, flags }));
    return this.runTracked((reached) => ({ op: 'firstMatching', patterns: specs, text, reached }), patterns, budgetMs);
  }

  /** Threads running now (for tests). */
  get threadCount(): number {
    return this.threads.size;
  }

  /** Ends every thread; pending matches fail. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.resolve({ ok: false, problem: 'the pattern matcher was closed' });
    await Promise.all([...this.threads].map((thread) => this.drop(thread, 'the pattern matcher was closed')));
  }

  /** Runs a task that notes the pattern it is on in `reached`, so an overrun names that pattern and its field. */
  private runTracked<T>(task: (reached: Int32Array) => MatchTask, patterns: readonly LabelledPattern[], budgetMs: number): Promise<BoundedMatch<T>> {
    const reached = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const culprit = () => {
      const running = patterns[Atomics.load(reached, 0)];
      return `${running.field} ${named([running])}`;
    };
    return this.run(task(reached), budgetMs, culprit);
  }

  private run<T>(task: MatchTask, budgetMs: number, namedPatterns: Job['named'], transfer: ArrayBuffer[] = []): Promise<BoundedMatch<T>> {
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, task, transfer, budgetMs, named: namedPatterns, resolve: resolve as Job['resolve'] });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.ready && !thread.job) this.assign(thread, this.queue.shift()!);
    }
    const starting = [...this.threads].filter((thread) => !thread.ready).length;
    const wanted = Math.min(this.queue.length - starting, (this.options.maxThreads ?? MAX_THREADS) - this.threads.size);
    for (let i = 0; i < wanted; i++) this.start();
  }

  private start(): void {
    const worker = new Worker(this.options.threadUrl ?? THREAD_URL);
    // An idle matcher must not keep its owner alive; a pending match keeps it alive through its budget timer.
    worker.unref();
    const thread: MatcherThread = { worker, ready: false, job: null, timer: null };
    this.threads.add(thread);
    worker.on('message', (reply: MatchReply) => this.onReply(thread, reply));
    worker.on('error', (error) => void this.drop(thread, `the pattern matcher thread failed: ${error.message}`));
    worker.on('exit', (code) => void this.drop(thread, `the pattern matcher thread exited (code ${code})`));
  }

  private assign(thread: MatcherThread, job: Job): void {
    thread.job = job;
    if (thread.timer) clearTimeout(thread.timer);
    // The budget counts from here, on a thread already booted: a boot is not the pattern's fault.
    thread.timer = setTimeout(() => this.overrun(thread), job.budgetMs);
    thread.worker.postMessage({ id: job.id, task: job.task } satisfies MatchRequest, job.transfer);
  }

  private onReply(thread: MatcherThread, reply: MatchReply): void {
    if ('ready' in reply) {
      thread.ready = true;
      this.idleFrom(thread);
      this.dispatch();
      return;
    }
    const job = thread.job;
    if (!job || job.id !== reply.id) return;
    thread.job = null;
    job.resolve(reply.ok ? { ok: true, value: reply.value } : { ok: false, problem: reply.message });
    this.idleFrom(thread);
    this.dispatch();
  }

  private idleFrom(thread: MatcherThread): void {
    if (thread.timer) clearTimeout(thread.timer);
    thread.timer = setTimeout(() => void this.drop(thread, 'idle'), this.options.idleExitMs ?? IDLE_EXIT_MS);
    thread.timer.unref();
  }

  private overrun(thread: MatcherThread): void {
    const job = thread.job;
    thread.job = null;
    if (job) {
      const patterns = typeof job.named === 'function' ? job.named() : job.named;
      job.resolve({
        ok: false,
        overran: true,
        problem: `${patterns} took longer than ${job.budgetMs} ms to match and was stopped: it backtracks too much (repeated or nested quantifiers such as ".*.*.*X" or "(a+)+"); simplify it`,
      });
    }
    void this.drop(thread, 'overrun');
  }

  /** Takes a thread out and ends it; a match it still held fails with `why`. */
  private async drop(thread: MatcherThread, why: string): Promise<void> {
    if (!this.threads.delete(thread)) return;
    if (thread.timer) clearTimeout(thread.timer);
    const job = thread.job;
    thread.job = null;
    job?.resolve({ ok: false, problem: why });
    // A thread that could not even boot would fail the same way again: the queue fails with it instead of looping.
    if (!thread.ready) for (const queued of this.queue.splice(0)) queued.resolve({ ok: false, problem: why });
    else this.dispatch();
    await thread.worker.terminate();
  }
}

/** The patterns as a caller wrote them, for an error the caller prefixes with its field name ("pattern: …"). */
function named(patterns: (PatternSpec | null)[]): string {
  const given = patterns.filter((spec): spec is PatternSpec => spec !== null);
  const names = given.map((spec) => {
    // Every pattern is multiline (compilePattern): only the flags a caller chose are worth naming.
    const chosen = spec.flags.replace('m', '');
    return JSON.stringify(spec.pattern) + (chosen ? ` (flags ${chosen})` : '');
  });
  return given.length === 1 ? names[0] : `one of ${names.join(' or ')}`;
}

function chromeRulePatterns(rules: readonly ChromeTrimRule[]): PatternSpec[] {
  const patterns = rules.flatMap((rule) => {
    switch (rule.kind) {
      case 'match':
        return [rule.pattern];
      case 'block':
        return [rule.start, rule.end];
      case 'from_last':
        return [rule.pattern, rule.followed_by, rule.above_while];
      case 'rows':
        return [];
    }
  });
  return patterns.filter((pattern): pattern is string => pattern !== undefined).map((pattern) => ({ pattern, flags: '' }));
}

/** Whether matching `patterns` over `chars` characters cannot stall: none can backtrack, and the worst case stays small. */
function canRunInline(patterns: readonly PatternSpec[], chars: number): boolean {
  const patternChars = patterns.reduce((total, spec) => total + spec.pattern.length, 0);
  return patternChars * chars <= INLINE_SEARCH_STEPS && patterns.every((spec) => matchesWithoutBacktracking(spec.pattern));
}

let threadMatcher: PatternMatcher | null = null;

/** This thread's matcher: the coordinator's, or a pane worker's own. */
export function patternMatcher(): PatternMatcher {
  threadMatcher ??= new PatternMatcher();
  return threadMatcher;
}
