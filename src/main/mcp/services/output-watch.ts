/**
 * spawn_process's ready_pattern / error_pattern (swarm ADR-006 health checks):
 * watches a process's output stream, line by line, and records which pattern
 * matched first. Matching the stream rather than the screen means a "ready"
 * line is seen even when later output scrolls it away at once.
 */
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { Emitter, DisposableStore, type Disposable } from '../../../shared/events.js';
import { completeLength } from './stream-text.js';
import { logIgnored } from '../../../node/patterm-log.js';
import { patternMatcher } from '../../../node/pattern-matcher.js';
import type { PatternSpec } from '../../../node/pattern-tasks.js';

export interface PatternHit {
  line: string;
  /** Milliseconds after the watch started. */
  afterMs: number;
}

export interface OutputHealth {
  readyPattern: string | null;
  errorPattern: string | null;
  /** Which pattern matched first, or null while neither has. */
  first: 'ready' | 'error' | null;
  ready: PatternHit | null;
  error: PatternHit | null;
  /** Set when watching stopped because matching took too long (pattern-matcher.ts). */
  patternProblem?: string;
}

/** A partial line longer than this is checked and then forgotten, so one endless line cannot grow memory. */
const MAX_CARRIED_LINE = 64 * 1024;
/** Which pattern a LineHit's `which` names (the order firstLineHits is given them in). */
const PATTERN_ROLES = ['ready', 'error'] as const;

export class OutputWatch implements Disposable {
  private readonly started = performance.now();
  private offset = 0;
  private carry = '';
  private pumping: Promise<void> | null = null;
  private again = false;
  private done = false;
  /** The process exited while a read was in flight: the next read must take everything. */
  private finalPending = false;
  private readonly changed = new Emitter<OutputHealth>();
  private readonly disposables = new DisposableStore();
  readonly health: OutputHealth;

  constructor(
    private readonly coordinator: Coordinator,
    private readonly paneId: PaneId,
    private readonly ready: RegExp | null,
    private readonly error: RegExp | null,
  ) {
    this.health = { readyPattern: ready?.source ?? null, errorPattern: error?.source ?? null, first: null, ready: null, error: null };
    this.disposables.add(coordinator.onScreenDirty(paneId, () => this.pump()));
    this.disposables.add(
      coordinator.onPaneExited((pane) => {
        if (pane.id !== paneId) return;
        this.pump(true);
      }),
    );
    this.pump();
  }

  /** Resolves when a pattern matched first, the process exited, or the timeout passed. */
  settled(timeoutMs: number): Promise<OutputHealth> {
    if (this.health.first !== null || this.done) return Promise.resolve(this.health);
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        subscription.dispose();
        resolve(this.health);
      };
      const timer = setTimeout(finish, timeoutMs);
      const subscription = this.changed.event(() => (this.health.first !== null || this.done) && finish());
    });
  }

  /**
   * Health as of everything the pane has printed so far. The watch is driven
   * by screen-dirty events, so it can trail a screen read by one batch; a
   * reader that reports health (list_children) catches up first, so it never
   * contradicts what wait_for_pattern just saw.
   */
  async current(): Promise<OutputHealth> {
    while (this.pumping) await this.pumping;
    if (!this.done) {
      this.pump();
      while (this.pumping) await this.pumping;
    }
    return this.health;
  }

  private pump(final = false): void {
    if (this.done) return;
    if (this.pumping) {
      this.again = true;
      if (final) this.finalPending = true;
      return;
    }
    this.pumping = this.read(final || this.finalPending).finally(() => {
      this.pumping = null;
      if (this.again && !this.done) {
        this.again = false;
        this.pump();
      }
    });
  }

  private async read(final: boolean): Promise<void> {
    try {
      if (!this.coordinator.has(this.paneId)) return this.finish();
      const chunk = await this.coordinator.stream(this.paneId, this.offset);
      const running = this.coordinator.info(this.paneId).process.status === 'running';
      const usable = final || !running ? chunk.bytes.length : completeLength(chunk.bytes);
      this.offset = chunk.startOffset + usable;
      const text = this.carry + new TextDecoder().decode(chunk.bytes.subarray(0, usable));
      const pieces = text.split('\n');
      this.carry = pieces.pop() ?? '';
      // Prompts often end without a newline ("ready> "); check the partial line too.
      await this.check(this.carry !== '' ? [...pieces, this.carry] : pieces);
      if (this.carry.length > MAX_CARRIED_LINE) this.carry = '';
      if (final || !running) this.finish();
    } catch (error) {
      // The pane closing under the watch is the usual end; a live pane losing its watch never reports ready or error.
      logIgnored(`output watch of pane ${this.paneId}; the watch ends`, error, this.coordinator.has(this.paneId) ? 'warn' : 'debug');
      this.finish();
    }
  }

  /** Matching runs on a pattern matcher thread: a pathological pattern stops this watch, and stalls nothing else. */
  private async check(rawLines: string[]): Promise<void> {
    const ready = this.health.ready ? null : this.ready;
    const error = this.health.error ? null : this.error;
    if (!ready && !error) return;
    const found = await patternMatcher().firstLineHits([specOf(ready), specOf(error)], rawLines);
    if (this.done) return;
    if (!found.ok) {
      this.health.patternProblem = found.problem;
      return this.finish();
    }
    for (const { which, line } of found.value) this.hit(PATTERN_ROLES[which], line);
    if ((!this.ready || this.health.ready) && (!this.error || this.health.error)) this.finish();
  }

  private hit(which: 'ready' | 'error', line: string): void {
    this.health[which] = { line: line.trim().slice(0, 500), afterMs: Math.round(performance.now() - this.started) };
    this.health.first ??= which;
    this.changed.fire(this.health);
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.changed.fire(this.health);
    this.disposables.dispose();
  }

  dispose(): void {
    this.finish();
    this.changed.dispose();
  }
}

function specOf(regex: RegExp | null): PatternSpec | null {
  return regex ? { pattern: regex.source, flags: regex.flags } : null;
}
