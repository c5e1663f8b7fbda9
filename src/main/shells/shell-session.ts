/**
 * One live shell pane: what its marks say (at the prompt, typing, running a
 * command), its commands into the ledger, and run_command's way in. Events
 * come from the pane's command tap in the PTY host (command-tap.ts), in order.
 *
 * A command is typed only into a shell that is at its prompt with an empty
 * line; otherwise the caller gets ShellBusyError and nothing is sent. A shell
 * with no marks of its own (integration off, another shell, or a shell nested
 * in this one) gets its command wrapped (fallback-wrap.ts), and whether it is
 * free is judged by what runs in its terminal's foreground (foreground.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Coordinator } from '../coordinator.js';
import type { PaneId, ShellPaneStatus } from '../../shared/pane-types.js';
import type { ShellEvent } from '../../shared/shell-mark-tracker.js';
import { bracketedPaste } from '../../shared/key-bytes.js';
import { Emitter } from '../../shared/events.js';
import { ignoreError } from '../../node/patterm-log.js';
import type { LedgerEnd, LedgerStart, ShellLedger } from './shell-ledger.js';
import { afterCommandEcho, buildRecord, writerFields, type CommandRecord, type Writer } from './command-record.js';
import { RECORD_OUTPUT_CAP } from './command-output.js';
import { foregroundOf } from './foreground.js';
import { fallbackWrapper } from './fallback-wrap.js';
import { isInteractiveShellName, shellFlavor, type ShellFlavor } from './shell-launch.js';
import { until, within } from './deadline.js';

/** The shell cannot take a command now; nothing was typed. */
export class ShellBusyError extends Error {
  override readonly name = 'ShellBusyError';
}

/** How long a shell with integration may take to show its first prompt before it is run through the fallback. */
export const INTEGRATION_WAIT_MS = 10_000;
/**
 * A fallback-wrapped command whose end mark never came (an interrupt makes an
 * interactive shell drop the rest of the line, the end mark with it) counts
 * as ended once its shell has been back in the foreground this long.
 */
const UNSEEN_END_MS = 1000;
/** How long a multi-line command waits for the line editor to turn bracketed paste on, after the prompt. */
const PASTE_MODE_WAIT_MS = 500;

interface Running {
  seq: number;
  nonce: string;
  start: LedgerStart;
  startedClock: number;
  ended: Promise<CommandRecord>;
  resolve(record: CommandRecord): void;
}

type PendingOutcome = { kind: 'started'; running: Running } | { kind: 'not-run'; record: CommandRecord } | { kind: 'exited' };

interface Pending {
  command: string;
  writer: Writer;
  nonce: string;
  integration: 'full' | 'fallback';
  typedAt: number;
  /** The shell asked for more of it (a continuation prompt): a primary prompt now means it was abandoned. */
  continued: boolean;
  settled: Promise<PendingOutcome>;
  settle(outcome: PendingOutcome): void;
}

export interface RunOutcome {
  record: CommandRecord;
}

export interface ShellSessionOptions {
  paneId: PaneId;
  name: string;
  pid: number;
  program: string;
  /** The nonce its integration's marks carry; null when it has none. */
  nonce: string | null;
  ledger: ShellLedger;
  coordinator: Coordinator;
  cwd: string;
}

type Phase = 'starting' | 'prompt' | 'between' | 'running' | 'exited';

export class ShellSession {
  readonly paneId: PaneId;
  readonly name: string;
  readonly ledger: ShellLedger;
  integration: ShellPaneStatus['integration'];
  private phase: Phase = 'starting';
  private lineEmpty = true;
  /** The line editor's bracketed paste, by the last switch seen in the stream (null: none seen). */
  private bracketedPaste: boolean | null = null;
  /** The shell's own command (marks with its nonce) and any fallback command inside it, by nonce. */
  private readonly running = new Map<string, Running>();
  private pending: Pending | null = null;
  /** A run_command is between its checks and its typing: a second one is refused. */
  private claimed = false;
  private lastExitCode: number | null = null;
  /** The shell's working directory, by its last mark. */
  cwd: string | null;
  private readonly flavor: ShellFlavor;
  private readonly changed = new Emitter<void>();
  private readonly endedEmitter = new Emitter<CommandRecord>();
  /** Every command that ends in this shell, whoever ran it. */
  readonly onCommandEnded = this.endedEmitter.event;
  private integrationTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: ShellSessionOptions) {
    this.paneId = options.paneId;
    this.name = options.name;
    this.ledger = options.ledger;
    this.cwd = options.cwd;
    this.flavor = shellFlavor(options.program);
    this.integration = options.nonce === null ? 'fallback' : 'pending';
    if (options.nonce !== null) {
      this.integrationTimer = setTimeout(() => {
        this.integrationTimer = null;
        if (this.integration !== 'pending') return;
        this.integration = 'fallback';
        this.publish();
      }, INTEGRATION_WAIT_MS);
    }
    this.publish();
  }

  get exited(): boolean {
    return this.phase === 'exited';
  }

  /** At its prompt with nothing typed: a command can be typed now. */
  get atEmptyPrompt(): boolean {
    return this.phase === 'prompt' && this.lineEmpty;
  }

  /** At its prompt with something typed that has not been submitted. */
  get typing(): boolean {
    return this.phase === 'prompt' && !this.lineEmpty;
  }

  /** The seq of the shell's own command running now, if any. */
  get runningSeq(): number | null {
    for (const running of this.running.values()) return running.seq;
    return null;
  }

  /** Running commands by seq (the shell's own, and a fallback one inside it). */
  runningCommand(seq: number): Running | undefined {
    for (const running of this.running.values()) if (running.seq === seq) return running;
    return undefined;
  }

  /** Settles once the shell has shown a prompt with its marks, or was judged to have none, or exited. */
  async integrationSettled(timeoutMs: number): Promise<ShellPaneStatus['integration']> {
    await until(this.changed.event, () => this.integration !== 'pending' || this.exited, performance.now() + timeoutMs);
    return this.integration;
  }

  // ---- events from the pane's command tap ------------------------------------

  onEvent(event: ShellEvent): void {
    if (this.exited) return;
    switch (event.kind) {
      case 'prompt':
        this.integration = 'full';
        this.phase = 'prompt';
        this.lineEmpty = true;
        if (this.pending?.continued) this.dropAbandoned();
        break;
      case 'continuation':
        if (this.pending) this.pending.continued = true;
        break;
      case 'line':
        this.lineEmpty = event.empty;
        break;
      case 'paste':
        this.bracketedPaste = event.on;
        break;
      case 'start':
        this.onStart(event);
        break;
      case 'end':
        if (event.ran) this.onEnd(event);
        else this.onNotRun(event);
        break;
    }
    this.publish();
    this.changed.fire();
  }

  private onStart(event: Extract<ShellEvent, { kind: 'start' }>): void {
    const ours = this.pending !== null && this.pending.nonce === event.nonce ? this.pending : null;
    if (!ours && event.nonce !== this.options.nonce) return; // a fallback nonce nobody waits for
    const own = event.nonce === this.options.nonce;
    const seq = this.ledger.takeSeq();
    const writer: Writer = ours?.writer ?? { kind: 'human' };
    const start: LedgerStart = {
      type: 'start',
      seq,
      at: new Date().toISOString(),
      pane: this.paneId,
      command: ours?.command ?? event.command ?? (event.echo === '' ? null : event.echo),
      ...writerFields(writer),
      cwd: this.cwd,
      integration: own ? 'full' : 'fallback',
      output_file: event.outputFile === undefined ? null : `output/${event.outputFile}`,
    };
    let resolve!: (record: CommandRecord) => void;
    const ended = new Promise<CommandRecord>((done) => (resolve = done));
    const running: Running = { seq, nonce: event.nonce, start, startedClock: performance.now(), ended, resolve };
    this.running.set(event.nonce, running);
    void this.ledger.append(start).catch(ignoreError(`recording the start of ${this.name}'s command ${seq}`));
    if (own) this.phase = 'running';
    if (ours) {
      this.pending = null;
      ours.settle({ kind: 'started', running });
    }
  }

  private onEnd(event: Extract<ShellEvent, { kind: 'end' }>): void {
    const running = this.running.get(event.nonce);
    if (!running) return;
    if (event.cwd !== undefined) this.cwd = event.cwd;
    this.finish(running, {
      exit_code: event.exitCode,
      output_bytes: event.outputBytes ?? 0,
      ...(event.command !== undefined && event.command !== running.start.command ? { command: event.command } : {}),
    });
    if (event.nonce === this.options.nonce) this.phase = 'between';
  }

  /**
   * A primary prompt after a continuation prompt, with the command typed not
   * started: it was abandoned (ctrl-c where an unclosed quote left it), and
   * the shell takes commands again.
   */
  private dropAbandoned(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    pending.settle({ kind: 'not-run', record: this.pendingRecord(pending, { status: 'not_run', finished_at: new Date().toISOString(), exit_code: null, output: '' }) });
  }

  /** The prompt came back and nothing ran: an empty line, or one the shell could not parse. */
  private onNotRun(event: Extract<ShellEvent, { kind: 'end' }>): void {
    if (event.cwd !== undefined) this.cwd = event.cwd;
    this.phase = 'between';
    const pending = this.pending;
    if (!pending || pending.nonce !== event.nonce) return;
    this.pending = null;
    const at = new Date().toISOString();
    const blank = pending.command.trim() === '';
    const said = blank ? '' : afterCommandEcho(event.echo ?? '', pending.command);
    const record = this.pendingRecord(pending, { status: 'not_run', finished_at: at, exit_code: blank ? null : event.exitCode, output: said });
    if (!blank) {
      // A command the shell refused is the caller's, and goes in the ledger with what the shell said.
      record.seq = this.ledger.takeSeq();
      const start: LedgerStart = { type: 'start', seq: record.seq, at: record.started_at, pane: this.paneId, command: pending.command, ...writerFields(pending.writer), cwd: this.cwd, integration: pending.integration, output_file: null };
      const end: LedgerEnd = { type: 'end', seq: record.seq, at, exit_code: record.exit_code, duration_ms: record.duration_ms!, cwd: this.cwd, output_bytes: 0, ran: false, output: said };
      void this.ledger.append(start).then(() => this.ledger.append(end)).catch(ignoreError(`recording ${this.name}'s command ${record.seq}, which did not run`));
    }
    pending.settle({ kind: 'not-run', record });
  }

  /** Writes the command's end and hands its record to those waiting. */
  private finish(running: Running, end: Pick<LedgerEnd, 'exit_code' | 'output_bytes' | 'command' | 'shell_exited'>): void {
    this.running.delete(running.nonce);
    this.lastExitCode = end.exit_code;
    const line: LedgerEnd = {
      type: 'end',
      seq: running.seq,
      at: new Date().toISOString(),
      duration_ms: Math.round(performance.now() - running.startedClock),
      cwd: this.cwd,
      ...end,
    };
    const appended = this.ledger.append(line).catch(ignoreError(`recording the end of ${this.name}'s command ${running.seq}`));
    void appended
      .then(() => buildRecord(running.start, line, { dir: this.ledger.dir, runningSeq: null, cap: RECORD_OUTPUT_CAP }))
      .then((record) => {
        running.resolve(record);
        this.endedEmitter.fire(record);
      })
      .catch(ignoreError(`reading back ${this.name}'s command ${running.seq}`));
  }

  /** The shell exited: what ran ended with it. */
  onExit(exitCode: number | null): void {
    if (this.exited) return;
    for (const running of [...this.running.values()]) this.finish(running, { exit_code: exitCode, output_bytes: 0, shell_exited: true });
    this.phase = 'exited';
    this.pending?.settle({ kind: 'exited' });
    this.pending = null;
    if (this.integrationTimer) clearTimeout(this.integrationTimer);
    void this.ledger.append({ type: 'exit', at: new Date().toISOString(), pane: this.paneId, exit_code: exitCode }).catch(ignoreError(`recording that ${this.name} exited`));
    this.publish();
    this.changed.fire();
  }

  private publish(): void {
    this.options.coordinator.setShellStatus(this.paneId, { integration: this.integration, running: this.running.size > 0, lastExitCode: this.lastExitCode });
  }

  // ---- run_command ----------------------------------------------------------

  /**
   * Types `command` and resolves with its record once it ends, or at
   * `deadline` (performance.now() time) with the record so far and
   * `timed_out`. Throws ShellBusyError, sending nothing, when the shell cannot
   * take it.
   */
  async run(command: string, writer: Writer, deadline: number, signal?: AbortSignal): Promise<RunOutcome> {
    if (this.claimed || this.pending) throw new ShellBusyError(`another command sent to ${this.name} has not started yet; wait for it (wait_for_command) and try again`);
    this.claimed = true;
    let pending: Pending;
    try {
      const how = await this.readyFor(deadline, signal);
      pending = await this.type(command, writer, how);
    } finally {
      this.claimed = false;
    }
    const started = await within(pending.settled, deadline, signal);
    if (started === null) {
      const record = this.pendingRecord(pending, { status: 'running', finished_at: null, exit_code: null, output: '' });
      return { record: pending.continued ? { ...record, continuation: true } : record };
    }
    if (started.kind === 'exited') throw new ShellBusyError(`${this.name} exited before the command started`);
    if (started.kind === 'not-run') return { record: started.record };
    return this.outcome(started.running, deadline, signal);
  }

  /** The command's record once it ends, or the record so far at `deadline`. */
  async outcome(running: Running, deadline: number, signal?: AbortSignal): Promise<RunOutcome> {
    const record = await within(running.ended, deadline, signal);
    if (record) return { record };
    const now = await buildRecord(running.start, undefined, { dir: this.ledger.dir, runningSeq: running.seq, cap: RECORD_OUTPUT_CAP });
    return { record: { ...now, duration_ms: Math.round(performance.now() - running.startedClock), timed_out: true } };
  }

  /** How the command goes in: typed at the shell's own prompt, or wrapped for a shell without marks. */
  private async readyFor(deadline: number, signal?: AbortSignal): Promise<{ kind: 'prompt' } | { kind: 'wrapped'; flavor: ShellFlavor }> {
    await until(this.changed.event, () => this.integration !== 'pending' || this.exited, deadline, signal);
    if (this.exited) throw new ShellBusyError(`${this.name} has exited; it takes no commands`);
    if (this.integration === 'pending') throw new ShellBusyError(`${this.name} has not shown its first prompt yet; try again in a moment`);
    if (this.integration === 'full') {
      if (this.phase === 'running') return this.nested();
      await until(this.changed.event, () => this.phase === 'prompt' || this.phase === 'running' || this.exited, deadline, signal);
      const phase = this.phase as Phase; // changed by events while waiting
      if (phase === 'running') return this.nested();
      if (phase !== 'prompt') throw new ShellBusyError(`${this.name}'s prompt did not come back in time`);
      if (!this.lineEmpty) throw new ShellBusyError(`someone is typing at ${this.name}'s prompt (its line is not empty); nothing was sent. Try again once the line is submitted or cleared`);
      return { kind: 'prompt' };
    }
    this.endUnseen();
    if (this.running.size > 0) throw this.busyRunning();
    const foreground = foregroundOf(this.options.pid);
    if (!foreground || foreground.isShell) return { kind: 'wrapped', flavor: this.flavor };
    if (isInteractiveShellName(foreground.name)) return { kind: 'wrapped', flavor: shellFlavor(foreground.name) };
    throw new ShellBusyError(`${this.name} is running ${foreground.name} (pid ${foreground.pid}) in its foreground; nothing was sent. Wait for it to end, or interrupt it with send_input key "ctrl-c"`);
  }

  /** The shell's own command runs: a shell nested in it (bash, ssh) can take a wrapped command; anything else means busy. */
  private nested(): { kind: 'wrapped'; flavor: ShellFlavor } {
    this.endUnseen();
    const foreground = this.running.size === 1 ? foregroundOf(this.options.pid) : null;
    if (foreground && !foreground.isShell && isInteractiveShellName(foreground.name)) return { kind: 'wrapped', flavor: shellFlavor(foreground.name) };
    throw this.busyRunning();
  }

  private busyRunning(): ShellBusyError {
    const running = [...this.running.values()].at(-1)!;
    const seconds = ((performance.now() - running.startedClock) / 1000).toFixed(1);
    const command = running.start.command === null ? 'a command' : JSON.stringify(running.start.command);
    return new ShellBusyError(
      `${this.name} is busy: command ${running.seq} (${command}, run by ${running.start.writer}) has been running for ${seconds} s; nothing was sent. Wait for it with wait_for_command (seq ${running.seq}), or interrupt it with send_input key "ctrl-c"`,
    );
  }

  /**
   * Ends fallback commands whose end mark will not come: the pane's shell is
   * back in its foreground with no command of its own running, long enough
   * after the command started that the mark is not merely late.
   */
  private endUnseen(): void {
    if (this.options.nonce !== null && this.running.has(this.options.nonce)) return; // a nested shell's commands cannot be judged so
    const stale = [...this.running.values()].filter((running) => performance.now() - running.startedClock >= UNSEEN_END_MS);
    if (stale.length === 0 || !foregroundOf(this.options.pid)?.isShell) return;
    for (const running of stale) this.finish(running, { exit_code: null, output_bytes: 0 });
  }

  private async type(command: string, writer: Writer, how: { kind: 'prompt' } | { kind: 'wrapped'; flavor: ShellFlavor }): Promise<Pending> {
    const { coordinator } = this.options;
    let nonce: string;
    let bytes: string;
    if (how.kind === 'prompt') {
      nonce = this.options.nonce!;
      bytes = await this.promptBytes(command);
    } else {
      nonce = randomBytes(16).toString('hex');
      await coordinator.expectShellNonce(this.paneId, nonce);
      bytes = fallbackWrapper(command, nonce, how.flavor);
    }
    let settle!: (outcome: PendingOutcome) => void;
    const settled = new Promise<PendingOutcome>((resolve) => (settle = resolve));
    const pending: Pending = { command, writer, nonce, integration: how.kind === 'prompt' ? 'full' : 'fallback', typedAt: Date.now(), continued: false, settled, settle };
    this.pending = pending;
    coordinator.write(this.paneId, bytes, 'orchestrator');
    return pending;
  }

  /**
   * A line of plain text is typed; anything else (several lines, a tab that
   * would complete, a control character) goes as one bracketed paste, so the
   * shell takes it whole and its line editor interprets none of it.
   */
  private async promptBytes(command: string): Promise<string> {
    // eslint-disable-next-line no-control-regex
    if (!/[\x00-\x1f\x7f]/.test(command)) return `${command}\r`;
    // zsh turns it on just after the prompt's B, bash just before: a moment's wait covers a read that split them.
    await until(this.changed.event, () => this.bracketedPaste === true, performance.now() + PASTE_MODE_WAIT_MS);
    if (!this.bracketedPaste) {
      throw new ShellBusyError(`${this.name}'s line editor has bracketed paste turned off, so a command with line breaks or control characters would be taken apart; nothing was sent. Send it one line at a time`);
    }
    return `${bracketedPaste(command)}\r`;
  }

  /**
   * The record of a command typed that has no seq (yet): one that has not
   * started by the call's deadline (`running`, timed out), or one the shell
   * did not run (`not_run`).
   */
  private pendingRecord(pending: Pending, fields: Pick<CommandRecord, 'status' | 'finished_at' | 'exit_code' | 'output'>): CommandRecord {
    return {
      seq: null,
      command: pending.command,
      ...writerFields(pending.writer),
      integration: pending.integration,
      started_at: new Date(pending.typedAt).toISOString(),
      duration_ms: Date.now() - pending.typedAt,
      output_bytes: 0,
      truncated_bytes: 0,
      output_file: null,
      cwd: this.cwd,
      timed_out: fields.status === 'running',
      ...fields,
    };
  }

  dispose(): void {
    if (this.integrationTimer) clearTimeout(this.integrationTimer);
    this.changed.dispose();
    this.endedEmitter.dispose();
  }
}
