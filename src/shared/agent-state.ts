/**
 * A pane's agent state: starting, busy, waiting for permission,
 * waiting for an answer, idle or exited, with the evidence behind the verdict
 * and since when it holds. Sources, strongest first:
 *   1. the preset's patterns on the rendered screen: its dialogs (each only in
 *      its own region of the screen), its busy marker, its ready composer;
 *   2. what the program told the terminal: a window title that asks for the
 *      user, OSC 9;4 progress, an OSC 9 / 777 notification, the bell;
 *   3. quiet time: no output for the idle threshold.
 * A dialog wins over any sign of activity: codex blinks its window title while
 * its approval dialog is up, so its output never goes quiet. Each dialog is a
 * wait of its own (dialog-waits.ts); an answered one still drawn is busy.
 * Pure: the caller feeds what the preset's patterns found on each screen
 * (matchScreenPatterns, run under a time budget off the coordinator's thread),
 * signals and a clock (tests use a fake one).
 */
import type { Dialog } from './preset-schema.js';
import { compilePattern } from './pattern.js';
import { DialogWaits } from './dialog-waits.js';

export const AGENT_STATES = ['starting', 'busy', 'waiting_permission', 'waiting_input', 'idle', 'exited'] as const;
export type AgentStateName = (typeof AGENT_STATES)[number];

/** The states in which the program waits for someone to answer it. */
export const NEEDS_ANSWER: ReadonlySet<AgentStateName> = new Set(['waiting_permission', 'waiting_input']);

export type EvidenceKind = 'pattern' | 'signal' | 'quiet' | 'process' | 'input';

export interface StateEvidence {
  kind: EvidenceKind;
  /** Which pattern, signal or threshold, in words a model can quote back ("dialogs[0] (permission)"). */
  detail: string;
}

export interface DialogMatch {
  index: number;
  kind: Dialog['kind'];
  /** The dialog's region of the screen, trimmed: what an approval policy checks. */
  text: string;
}

export interface AgentState {
  state: AgentStateName;
  source: StateEvidence;
  /** Clock time (ms) at which the pane entered this state; for a waiting state, at which this dialog came up. */
  since: number;
  /** The dialog on screen, for the waiting states that a pattern found. */
  dialog?: DialogMatch;
}

/** The preset patterns a screen is judged by. */
export interface ScreenPatternRules {
  dialogs: readonly Dialog[];
  readyPattern?: string;
  busyPattern?: string;
  /** Flags of the ready and busy patterns. */
  flags?: string;
}

/** What the machine judges by: from an agent preset (or defaults, for a process). */
export interface StateRules extends ScreenPatternRules {
  idleThresholdMs: number;
  /**
   * The pane is "starting" until a pattern or signal gives a verdict (or,
   * without a ready pattern, until its first quiet spell), but no longer than
   * this: a CLI whose screen changed after an upgrade, or a program that never
   * pauses, is then judged by quiet time instead of starting forever.
   */
  startLimitMs: number;
}

/** What the preset's patterns found on one screen (matchScreenPatterns). */
export interface ScreenPatternMatches {
  /** The first dialog shown in its region; busy and ready are not looked for then. */
  dialog: DialogMatch | null;
  busy: boolean;
  ready: boolean;
}

/** The patterns' findings, or why they could not be used (a pattern ran past its time budget). */
export type ScreenPatterns = ScreenPatternMatches | { unusable: string };

export interface ScreenObservation {
  patterns: ScreenPatterns;
  /** Time since the program last wrote anything (the worker's idle clock). */
  idleMs: number;
  /** The window title the program set (OSC 0/2), if any. */
  title?: string;
  /** The program is inside a synchronized update (DEC mode 2026): the screen may be half drawn. */
  synchronizedUpdate?: boolean;
}

/** A program that stays inside a synchronized update this long is not drawing a frame; its screen is judged as it is. */
const HALF_DRAWN_LIMIT_MS = 500;

/**
 * A screen read while the program draws a frame inside a synchronized update
 * is half drawn (the top of a new dialog over the rest of the old screen), so
 * it is not judged, unless the program has left it so for longer than a frame takes.
 */
export function isHalfDrawn(screen: { synchronizedUpdate?: boolean; idleMs: number }): boolean {
  return screen.synchronizedUpdate === true && screen.idleMs < HALF_DRAWN_LIMIT_MS;
}

export type TerminalSignal =
  /** OSC 9;4;<state>[;<value>]: 0 removes the progress, 1 and 3 show work going on, 2 error, 4 paused. */
  | { type: 'progress'; state: number }
  | { type: 'notification'; text: string }
  | { type: 'bell' };

/**
 * A notification or bell arrives a little after the output around it (the
 * worker forwards it once the batch is parsed); output within this much of it
 * still counts as the same moment, anything later makes it stale.
 */
const SIGNAL_SAME_MOMENT_MS = 150;
/** Words of a notification that asks for an approval (claude: "Claude needs your permission to use Bash"). */
const PERMISSION_WORDS = /\b(?:permission|approv\w*|allow)\b/i;
/**
 * A window title that asks for the user (codex blinks "[ ! ] Action Required"
 * while its approval dialog is up). A title holds until the program changes it,
 * unlike a notification, so it is evidence for as long as it stands.
 */
const ASKING_TITLE = /\baction required\b|\bneeds? (?:your )?(?:permission|approval)\b|\bwaiting for (?:your )?(?:permission|approval)\b/i;
/** OSC 9;4 states that mean the program is working. */
const PROGRESS_ACTIVE = new Set([1, 3]);

type Verdict = { state: AgentStateName; source: StateEvidence; dialog?: DialogMatch };

export class AgentStateMachine {
  private started = false;
  private progressActive = false;
  private lastAlert: { at: number; signal: Exclude<TerminalSignal, { type: 'progress' }> } | null = null;
  private exit: string | null = null;
  private current: AgentState;
  private readonly waits = new DialogWaits((state) => NEEDS_ANSWER.has(state as AgentStateName));

  constructor(
    private readonly rules: StateRules,
    private readonly clock: () => number,
    /** When the program was launched (clock time). */
    private readonly startedAt: number = clock(),
  ) {
    this.current = { state: 'starting', source: { kind: 'process', detail: 'launched, nothing judged yet' }, since: this.startedAt };
  }

  /** Whether the preset names a ready prompt, so "idle" can rest on seeing it rather than on quiet alone. */
  get hasReadyPattern(): boolean {
    return this.rules.readyPattern !== undefined;
  }

  get idleThresholdMs(): number {
    return this.rules.idleThresholdMs;
  }

  get state(): AgentState {
    return this.current;
  }

  noteSignal(signal: TerminalSignal): void {
    if (signal.type === 'progress') this.progressActive = PROGRESS_ACTIVE.has(signal.state);
    else this.lastAlert = { at: this.clock(), signal };
  }

  /** The process ended: final, whatever the screen says. */
  noteExit(description: string): AgentState {
    this.exit = description;
    return this.settle({ state: 'exited', source: { kind: 'process', detail: description } });
  }

  /** Judges one screen; returns the (possibly unchanged) state. */
  observe(screen: ScreenObservation): AgentState {
    if (this.exit !== null || isHalfDrawn(screen)) return this.current;
    return this.settle(this.judge(screen));
  }

  /**
   * The dialog on screen was answered: busy until the program takes the
   * answer, so that neither a wait nor a notice takes the answered dialog,
   * still drawn, for the next one.
   */
  noteAnswered(): AgentState {
    const dialog = this.current.dialog;
    if (this.exit !== null || !NEEDS_ANSWER.has(this.current.state) || !dialog) return this.current;
    const state = this.settle(answeredVerdict(dialog));
    this.waits.noteAnswered(dialog.text, this.clock());
    return state;
  }

  private settle(verdict: Verdict): AgentState {
    this.current = { ...verdict, since: this.waits.sinceFor(this.current, verdict, this.clock()) };
    return this.current;
  }

  private judge(screen: ScreenObservation): Verdict {
    const { patterns } = screen;
    const unusable = 'unusable' in patterns ? patterns.unusable : null;
    const found = ('unusable' in patterns ? null : this.fromPatterns(patterns)) ?? this.fromSignals(screen.idleMs, screen.title ?? '');
    if (found) this.started = true;
    const verdict = found ?? this.fromTime(screen.idleMs, unusable === null);
    // Judged without the preset's patterns: the evidence says why, so a caller knows how little it rests on.
    return unusable === null ? verdict : { ...verdict, source: { ...verdict.source, detail: `${verdict.source.detail}; ${unusable}` } };
  }

  private fromTime(idleMs: number, patternsUsable: boolean): Verdict {
    const threshold = this.rules.idleThresholdMs;
    // A preset with a ready pattern starts when a pattern says so; without one, at its first quiet spell (the default ready signal).
    const awaitingPattern = !this.started && patternsUsable && this.hasReadyPattern && this.clock() - this.startedAt < this.rules.startLimitMs;
    if (idleMs >= threshold && !awaitingPattern) {
      this.started = true;
      return { state: 'idle', source: { kind: 'quiet', detail: `no output for ${idleMs} ms (idle threshold ${threshold} ms)` } };
    }
    if (awaitingPattern) return { state: 'starting', source: { kind: 'pattern', detail: 'ready_signal.pattern not seen yet' } };
    if (!this.started && this.clock() - this.startedAt < this.rules.startLimitMs) {
      return { state: 'starting', source: { kind: 'quiet', detail: `output ${idleMs} ms ago, not yet quiet for ${threshold} ms` } };
    }
    this.started = true;
    return { state: 'busy', source: { kind: 'quiet', detail: `output ${idleMs} ms ago (idle threshold ${threshold} ms)` } };
  }

  private fromPatterns(matches: ScreenPatternMatches): Verdict | null {
    const { dialog } = matches;
    if (dialog) {
      if (this.waits.isAnswered(dialog.text, this.clock())) return answeredVerdict(dialog);
      const state = dialog.kind === 'permission' ? 'waiting_permission' : 'waiting_input';
      return { state, source: { kind: 'pattern', detail: `dialogs[${dialog.index}] (${dialog.kind})` }, dialog };
    }
    this.waits.noteNoDialog();
    if (matches.busy) return { state: 'busy', source: { kind: 'pattern', detail: 'ready_signal.busy_pattern' } };
    if (this.progressActive) return null; // the signal says busy; the composer may show while a tool runs
    if (matches.ready) return { state: 'idle', source: { kind: 'pattern', detail: 'ready_signal.pattern' } };
    return null;
  }

  private fromSignals(idleMs: number, title: string): Verdict | null {
    if (ASKING_TITLE.test(title)) return { state: 'waiting_permission', source: { kind: 'signal', detail: `title ${JSON.stringify(title.slice(0, 120))}` } };
    if (this.progressActive) return { state: 'busy', source: { kind: 'signal', detail: 'OSC 9;4 progress' } };
    const alert = this.lastAlert;
    // Output after the alert means the program moved on.
    if (!alert || this.clock() - alert.at > idleMs + SIGNAL_SAME_MOMENT_MS) return null;
    if (alert.signal.type === 'bell') return { state: 'idle', source: { kind: 'signal', detail: 'bell' } };
    const text = alert.signal.text;
    const quoted = `notification ${JSON.stringify(text.slice(0, 120))}`;
    return PERMISSION_WORDS.test(text)
      ? { state: 'waiting_permission', source: { kind: 'signal', detail: quoted } }
      : { state: 'idle', source: { kind: 'signal', detail: quoted } };
  }
}

function answeredVerdict(dialog: DialogMatch): Verdict {
  return { state: 'busy', source: { kind: 'input', detail: `dialogs[${dialog.index}] answered; the program has yet to take the answer` } };
}

/** A pattern of the rules, named by its preset field ("dialogs[0].region.below"). */
export interface ScreenPatternField {
  field: string;
  pattern: string;
  flags: string;
}

/** Every pattern of `rules`, numbered in the order matchScreenPatterns tries them (it reports each number as it starts on it). */
export function screenPatternFields(rules: ScreenPatternRules): ScreenPatternField[] {
  const fields: ScreenPatternField[] = [];
  rules.dialogs.forEach((dialog, index) => {
    if (dialog.region.below !== undefined) fields.push({ field: `dialogs[${index}].region.below`, pattern: dialog.region.below, flags: '' });
    fields.push({ field: `dialogs[${index}].pattern`, pattern: dialog.pattern, flags: dialog.flags ?? '' });
  });
  if (rules.busyPattern !== undefined) fields.push({ field: 'ready_signal.busy_pattern', pattern: rules.busyPattern, flags: rules.flags ?? '' });
  if (rules.readyPattern !== undefined) fields.push({ field: 'ready_signal.pattern', pattern: rules.readyPattern, flags: rules.flags ?? '' });
  return fields;
}

export type CompileFn = (pattern: string, flags: string) => RegExp;

/**
 * What the preset's patterns find on a screen: the first dialog shown in its
 * own region, else the busy marker and the ready composer. `reached` hears
 * the number (screenPatternFields) of each pattern just before it runs, so a
 * match stopped for overrunning its budget can be blamed on its field.
 */
export function matchScreenPatterns(rules: ScreenPatternRules, lines: readonly string[], compile: CompileFn = compilePattern, reached: (field: number) => void = () => {}): ScreenPatternMatches {
  const fields = screenPatternFields(rules);
  let next = 0;
  const regex = () => {
    reached(next);
    const { pattern, flags } = fields[next++];
    return compile(pattern, flags);
  };
  for (const [index, rule] of rules.dialogs.entries()) {
    const region = rule.region.below !== undefined ? rowsBelowLast(regex(), lines) : lines.slice(Math.max(0, lines.length - rule.region.bottom_rows!));
    const pattern = regex();
    if (region.length === 0 || !pattern.test(region.join('\n'))) continue;
    return { dialog: { index, kind: rule.kind, text: trimBlankEdges(region).join('\n') }, busy: false, ready: false };
  }
  const text = lines.join('\n');
  const busy = rules.busyPattern !== undefined && regex().test(text);
  const ready = !busy && rules.readyPattern !== undefined && regex().test(text);
  return { dialog: null, busy, ready };
}

/** The rows under the last row `rule` matches; none when no row does. */
function rowsBelowLast(rule: RegExp, lines: readonly string[]): readonly string[] {
  for (let row = lines.length - 1; row >= 0; row--) if (rule.test(lines[row])) return lines.slice(row + 1);
  return [];
}

function trimBlankEdges(rows: readonly string[]): string[] {
  let first = 0;
  let last = rows.length;
  while (first < last && rows[first].trim() === '') first++;
  while (last > first && rows[last - 1].trim() === '') last--;
  return rows.slice(first, last).map((row) => row.trimEnd());
}

/** Reads an OSC 9 / 777 payload: progress (9;4), a notification (9;<text>, 777;notify;<title>;<body>), or nothing. */
export function terminalSignalFromOsc(code: number, data: string): TerminalSignal | null {
  if (code === 9) {
    const progress = /^4;(\d+)/.exec(data);
    if (progress) return { type: 'progress', state: Number(progress[1]) };
    // ConEmu's other OSC 9 commands (9;1 sleep, 9;9 working directory, …) are not notifications.
    return data === '' || /^\d+(?:;|$)/.test(data) ? null : { type: 'notification', text: data };
  }
  if (code === 777) {
    const [kind, title = '', body = ''] = data.split(';');
    return kind === 'notify' ? { type: 'notification', text: [title, body].filter((part) => part !== '').join(': ') } : null;
  }
  return null;
}
