/**
 * Keeps every pane's agent state (src/shared/agent-state.ts) up to date on the
 * coordinator thread: agent panes every POLL_MS and after each terminal
 * signal; a pane someone waits on after each screen change (at most every
 * SAMPLE_INTERVAL_MS) and when its quiet time runs out; any pane when asked. Changes
 * (a new state, or another dialog in the same waiting state) go to onChange
 * (notices to parents, waits) and to the tree's "needs you" mark.
 * The preset's patterns run through the pattern matcher (pattern-matcher.ts),
 * under its time budget, once per screen version; a pane whose pattern ran
 * past the budget is judged without its preset's patterns from then on.
 */
import type { AgentPreset } from '../../shared/preset-schema.js';
import type { GridSnapshot, PaneId, PaneInfo, PaneSignal } from '../../shared/pane-types.js';
import { DEFAULT_IDLE_THRESHOLD_MS } from '../../shared/pane-protocol.js';
import { AgentStateMachine, isHalfDrawn, type AgentState, type AgentStateName, type ScreenPatterns, type StateRules } from '../../shared/agent-state.js';
import { DisposableStore, Emitter, type Disposable } from '../../shared/events.js';
import type { Coordinator } from '../coordinator.js';
import { describeExit } from './exit-description.js';
import { DEFAULT_READY_SIGNAL, readyTimeoutMs } from '../presets/ready-state.js';
import { sameLines } from '../presets/pane-driver.js';
import { log, logIgnored, pattermLog } from '../../node/patterm-log.js';
import { PATTERN_BUDGET_MS, patternMatcher, type PatternMatcher } from '../../node/pattern-matcher.js';

/** A spinner redraws every ~80-100 ms; judging more often than this only costs grid reads. */
const SAMPLE_INTERVAL_MS = 150;
/** How often agent panes nobody waits on are judged: a notice waits longer than this for a quiet parent anyway. */
const POLL_MS = 500;
/** How often a state that can change with time alone (starting, a signal's verdict) is judged again. */
const TIME_RECHECK_MS = 500;
/** Judging again just after the quiet threshold passes, not just before it. */
const THRESHOLD_MARGIN_MS = 20;

export interface StateChange {
  paneId: PaneId;
  state: AgentState;
  previous: AgentStateName;
}

export interface StateWaitOutcome {
  matched: boolean;
  state: AgentState;
  elapsedMs: number;
}

export interface AgentStateTrackerOptions {
  coordinator: Coordinator;
  /** The agent preset a pane runs, if any (the launcher knows). */
  presetFor(paneId: PaneId): AgentPreset | undefined;
  clock?: () => number;
}

interface Entry {
  machine: AgentStateMachine;
  rules: StateRules;
  /** The patterns' findings on the last screen asked about: a screen that did not change is not matched again. */
  lastPatterns: { screenVersion: number; lines: readonly string[]; found: Promise<ScreenPatterns> } | null;
  /** Set once a pattern overran its budget: why the preset's patterns are no longer used for this pane. */
  patternsSetAside: string | null;
  /** Screen reads numbered as they are judged: an older read whose matching finishes later is not judged after a newer one. */
  readsStarted: number;
  readsJudged: number;
  /** Screen-change subscription while someone waits on the pane's state. */
  following: Disposable | null;
  /** Agent panes are judged every POLL_MS meanwhile, for notices and the tree's mark. */
  polling: ReturnType<typeof setInterval> | null;
  waiters: number;
  sampling: Promise<AgentState> | null;
  again: boolean;
  lastSampleAt: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export class AgentStateTracker implements Disposable {
  private readonly entries = new Map<PaneId, Entry>();
  private readonly changed = new Emitter<StateChange>();
  private readonly disposables = new DisposableStore();
  private readonly clock: () => number;
  private readonly matcher: PatternMatcher;
  readonly onChange = this.changed.event;
  /** How long the preset's patterns may take on one screen (tests lengthen it to watch a judgement in progress). */
  patternBudgetMs = PATTERN_BUDGET_MS;

  constructor(private readonly options: AgentStateTrackerOptions) {
    this.clock = options.clock ?? Date.now;
    this.matcher = patternMatcher();
    const { coordinator } = options;
    this.disposables.add(coordinator.onPaneAdded((pane) => pane.kind === 'agent' && this.follow(pane.id)));
    this.disposables.add(coordinator.onPaneSignal(({ paneId, signal }) => this.onSignal(paneId, signal)));
    this.disposables.add(coordinator.onPaneExited((pane) => this.onExited(pane)));
    for (const pane of coordinator.allPanes()) if (pane.kind === 'agent' && pane.process.status === 'running') this.follow(pane.id);
  }

  /** The state as last judged, without reading the screen; null for a pane never judged. */
  peek(paneId: PaneId): AgentState | null {
    return this.entries.get(paneId)?.machine.state ?? null;
  }

  /** The state judged from the screen as it is now. */
  async current(paneId: PaneId): Promise<AgentState> {
    const entry = this.entry(paneId);
    if (entry.machine.state.state === 'exited') return entry.machine.state;
    return this.sample(paneId, entry);
  }

  /**
   * Idle at its input prompt: shown by the preset's ready pattern when it has
   * one (text typed into the input hides claude's and codex's hint), by quiet
   * time otherwise, or once its patterns were set aside (a notice would
   * otherwise wait for a pattern that is no longer matched).
   */
  atReadyPrompt(paneId: PaneId): boolean {
    const entry = this.entries.get(paneId);
    if (!entry || entry.machine.state.state !== 'idle') return false;
    return !entry.machine.hasReadyPattern || entry.patternsSetAside !== null || entry.machine.state.source.kind === 'pattern';
  }

  /**
   * The dialog the pane showed when last judged was just answered (send_input):
   * it is not waited on again while it still shows, and a dialog that follows it is a new wait.
   */
  noteAnswered(paneId: PaneId): void {
    const entry = this.entries.get(paneId);
    if (!entry) return;
    const previous = entry.machine.state;
    this.publish(paneId, previous, entry.machine.noteAnswered());
  }

  /** Judges a screen the caller has just read (read_output), so the state matches what it returns. */
  judge(paneId: PaneId, grid: GridSnapshot): Promise<AgentState> {
    return this.observe(paneId, this.entry(paneId), grid);
  }

  /**
   * Resolves once the pane is in one of `states`, or when `timeoutMs` pass, or
   * `signal` aborts.
   */
  async waitFor(
    paneId: PaneId,
    states: ReadonlySet<AgentStateName>,
    timeoutMs: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<StateWaitOutcome> {
    const started = this.clock();
    const entry = this.entry(paneId);
    const now = await this.current(paneId);
    if (states.has(now.state) || now.state === 'exited' || timeoutMs <= 0 || options.signal?.aborted) {
      return { matched: states.has(now.state), state: now, elapsedMs: this.clock() - started };
    }
    entry.waiters++;
    this.startFollowing(paneId, entry);
    return new Promise((resolve) => {
      let done = false;
      const finish = (matched: boolean, state: AgentState) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        subscription.dispose();
        options.signal?.removeEventListener('abort', abort);
        entry.waiters--;
        if (entry.waiters === 0) this.stopFollowing(entry);
        resolve({ matched, state, elapsedMs: this.clock() - started });
      };
      const subscription = this.changed.event((change) => {
        if (change.paneId !== paneId) return;
        if (states.has(change.state.state)) finish(true, change.state);
        else if (change.state.state === 'exited') finish(false, change.state);
      });
      const abort = () => finish(false, entry.machine.state);
      options.signal?.addEventListener('abort', abort, { once: true });
      const deadline = setTimeout(() => finish(false, entry.machine.state), timeoutMs);
      // A change published between the first judgement and the subscription above is not lost.
      if (states.has(entry.machine.state.state)) finish(true, entry.machine.state);
    });
  }

  private entry(paneId: PaneId): Entry {
    let entry = this.entries.get(paneId);
    if (!entry) {
      this.forgetClosed();
      const info = this.options.coordinator.info(paneId);
      const rules = rulesFor(this.options.presetFor(paneId));
      const machine = new AgentStateMachine(rules, this.clock, info.createdAt);
      entry = { machine, rules, lastPatterns: null, patternsSetAside: null, readsStarted: 0, readsJudged: 0, following: null, polling: null, waiters: 0, sampling: null, again: false, lastSampleAt: 0, timer: null };
      this.entries.set(paneId, entry);
      if (info.process.status !== 'running') machine.noteExit(describeExit(info.process));
    }
    return entry;
  }

  /** Panes closed since (kill with close, or the TUI) are gone from the tree; their entries go too. */
  private forgetClosed(): void {
    for (const [paneId, entry] of this.entries) {
      if (this.options.coordinator.has(paneId)) continue;
      this.stopAll(entry);
      this.entries.delete(paneId);
    }
  }

  /**
   * Agent panes are judged on a timer rather than on every screen change: a
   * spinner changes the screen ten times a second, and a notice to a parent
   * or the tree's mark can wait POLL_MS. A quiet pane's screen is read from
   * its mirror without waking its worker.
   */
  private follow(paneId: PaneId): void {
    const entry = this.entry(paneId);
    if (entry.polling || entry.machine.state.state === 'exited') return;
    entry.polling = setInterval(() => this.schedule(paneId, entry, 0), POLL_MS);
    this.schedule(paneId, entry, 0);
  }

  private startFollowing(paneId: PaneId, entry: Entry): void {
    if (entry.following || entry.machine.state.state === 'exited') return;
    entry.following = this.options.coordinator.onScreenDirty(paneId, () => this.schedule(paneId, entry, 0));
    this.schedule(paneId, entry, 0);
  }

  private stopFollowing(entry: Entry): void {
    entry.following?.dispose();
    entry.following = null;
  }

  private stopAll(entry: Entry): void {
    this.stopFollowing(entry);
    if (entry.polling) clearInterval(entry.polling);
    entry.polling = null;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
  }

  /** Judges the pane again after `delayMs`, or at once if the last judgement is old enough. */
  private schedule(paneId: PaneId, entry: Entry, delayMs: number): void {
    if (!entry.following && !entry.polling) return;
    const wait = Math.max(delayMs, entry.lastSampleAt + SAMPLE_INTERVAL_MS - this.clock());
    if (entry.timer) {
      if (wait > 0) return; // one is already due
      clearTimeout(entry.timer);
    }
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void this.sample(paneId, entry).catch((error: unknown) => logIgnored(`sampling the agent state of pane ${paneId}; it keeps its last state`, error, this.options.coordinator.has(paneId) ? 'warn' : 'debug'));
    }, Math.max(0, wait));
  }

  private async sample(paneId: PaneId, entry: Entry): Promise<AgentState> {
    if (entry.sampling) {
      entry.again = true;
      return entry.sampling;
    }
    entry.sampling = (async () => {
      let state = entry.machine.state;
      let grid: GridSnapshot | null = null;
      do {
        entry.again = false;
        entry.lastSampleAt = this.clock();
        grid = await this.options.coordinator.grid(paneId);
        state = await this.observe(paneId, entry, grid);
      } while (entry.again);
      // A half-drawn screen was not judged: look again once the frame is done.
      if (isHalfDrawn(grid)) this.schedule(paneId, entry, 0);
      else this.recheckLater(paneId, entry, state, grid.idleMs);
      return state;
    })().finally(() => {
      entry.sampling = null;
    });
    return entry.sampling;
  }

  /** Judges one screen read of the pane, with its preset's patterns matched under their budget. */
  private async observe(paneId: PaneId, entry: Entry, grid: GridSnapshot): Promise<AgentState> {
    if (entry.machine.state.state === 'exited' || isHalfDrawn(grid)) return entry.machine.state;
    const read = ++entry.readsStarted;
    const patterns = await this.patternsOn(paneId, entry, grid);
    if (read < entry.readsJudged) return entry.machine.state;
    entry.readsJudged = read;
    const previous = entry.machine.state;
    const state = entry.machine.observe({ patterns, idleMs: grid.idleMs, title: grid.title, synchronizedUpdate: grid.synchronizedUpdate });
    this.publish(paneId, previous, state);
    return state;
  }

  /** The preset's patterns on this screen, matched once per screen version; never throws. */
  private patternsOn(paneId: PaneId, entry: Entry, grid: GridSnapshot): Promise<ScreenPatterns> {
    if (entry.patternsSetAside !== null) return Promise.resolve({ unusable: entry.patternsSetAside });
    const last = entry.lastPatterns;
    // The version alone would do while the pane's worker lives; the lines guard against a worker that started counting again.
    if (last && last.screenVersion === grid.screenVersion && sameLines(last.lines, grid.lines)) return last.found;
    const found = this.matcher.screenPatterns(entry.rules, grid.lines, this.patternBudgetMs).then((outcome): ScreenPatterns => {
      if (outcome.ok) return outcome.value;
      const why = `the preset's patterns are not used for this pane: ${outcome.problem}`;
      if (!outcome.overran) {
        // Not the pattern's fault (the matcher closed or its thread failed): the next screen tries again.
        pattermLog(`agent state of pane ${paneId}: ${outcome.problem}`);
        return { unusable: `the preset's patterns could not be matched: ${outcome.problem}` };
      }
      if (entry.patternsSetAside === null) log.warn(`agent state of pane ${paneId}: ${why}`);
      // An overrun would recur on every screen like this one, each holding a matcher thread for the whole budget.
      entry.patternsSetAside = why;
      return { unusable: why };
    });
    entry.lastPatterns = { screenVersion: grid.screenVersion, lines: grid.lines, found };
    return found;
  }

  /** A verdict from quiet time or a passing signal can change with no new output: look again when it would. */
  private recheckLater(paneId: PaneId, entry: Entry, state: AgentState, idleMs: number): void {
    // An answered dialog that still shows waits again once the program has had its time to take the answer.
    if (state.state === 'starting' || state.source.kind === 'signal' || state.source.kind === 'input') return this.schedule(paneId, entry, TIME_RECHECK_MS);
    if (state.state === 'busy' && state.source.kind === 'quiet') this.schedule(paneId, entry, Math.max(0, entry.machine.idleThresholdMs - idleMs) + THRESHOLD_MARGIN_MS);
  }

  /** A new state, or a new wait in the same state (another dialog), is a change. */
  private publish(paneId: PaneId, previous: AgentState, state: AgentState): void {
    if (previous.state === state.state && previous.since === state.since) return;
    const { coordinator } = this.options;
    if (coordinator.has(paneId)) coordinator.setAgentState(paneId, state.state);
    this.changed.fire({ paneId, state, previous: previous.state });
  }

  private onSignal(paneId: PaneId, signal: PaneSignal): void {
    if (signal.type !== 'progress' && signal.type !== 'notification' && signal.type !== 'bell') return;
    // Kept for any pane, asked about or not: progress set before the first question still counts.
    if (!this.options.coordinator.has(paneId)) return;
    const entry = this.entry(paneId);
    entry.machine.noteSignal(signal);
    this.schedule(paneId, entry, 0);
  }

  private onExited(pane: PaneInfo): void {
    const entry = this.entries.get(pane.id);
    if (!entry) return;
    this.stopAll(entry);
    const previous = entry.machine.state;
    this.publish(pane.id, previous, entry.machine.noteExit(describeExit(pane.process)));
  }

  dispose(): void {
    for (const entry of this.entries.values()) this.stopAll(entry);
    this.entries.clear();
    this.disposables.dispose();
    this.changed.dispose();
  }
}

/** What a pane's state is judged by: its agent preset's dialogs and ready signal, or quiet time alone. */
export function rulesFor(preset: AgentPreset | undefined): StateRules {
  const signal = preset?.ready_signal;
  const pattern = signal?.kind === 'pattern' ? signal : null;
  return {
    dialogs: preset?.dialogs ?? [],
    readyPattern: pattern?.pattern,
    busyPattern: pattern?.busy_pattern,
    flags: pattern?.flags,
    idleThresholdMs: preset?.idle_threshold_ms ?? DEFAULT_IDLE_THRESHOLD_MS,
    startLimitMs: readyTimeoutMs(signal ?? DEFAULT_READY_SIGNAL),
  };
}
