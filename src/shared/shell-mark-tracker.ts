/**
 * Follows a shell pane's output through its OSC 133 marks (shell-marks.ts):
 * which marks are the pane's own (they carry its nonce, or a nonce a
 * fallback-wrapped command was given), where each command's output starts and
 * ends, and whether someone is typing at the prompt. The PTY host runs it on
 * every byte a shell pane prints (command-tap.ts), before any of it can be
 * skimmed, so a command's output is seen whole.
 *
 * A mark can be split across reads: the bytes of a sequence still open at the
 * end of a read are held back and looked at again with the next read, so the
 * marks themselves (and their nonce) never reach a command's output. Pure.
 */
import type { ScannedEvent } from './sequence-scanner.js';
import { historyCommand, NONCE_FIELD, parseShellMark, type ShellMark } from './shell-marks.js';
import { renderText } from './ansi-strip.js';

export type ShellEvent =
  /** B: the shell reads a new command line. */
  | { kind: 'prompt' }
  /** B of a continuation prompt (k=s): the line typed is not complete (an unclosed quote, say). */
  | { kind: 'continuation' }
  /** The line at the prompt became empty or not (zsh's I marks; for bash, the first echo after B). */
  | { kind: 'line'; empty: boolean }
  /**
   * The shell's line editor turned bracketed paste on or off (CSI ? 2004 h / l): seen in the
   * stream, in order with the marks, where a read of the screen could lag behind them.
   */
  | { kind: 'paste'; on: boolean }
  /** C: a command's output starts. `command` when the shell said it (zsh); `echo` is what was typed, as shown. */
  | { kind: 'start'; nonce: string; command?: string; echo: string; outputFile?: string }
  /**
   * D: the command ended, or (`ran` false) the prompt came back with no command run: an empty
   * line, or one the shell could not parse (`echo` then holds what it printed).
   */
  | { kind: 'end'; nonce: string; ran: boolean; exitCode: number | null; cwd?: string; command?: string; echo?: string; outputFile?: string; outputBytes?: number };

export interface TrackerSink {
  event(event: ShellEvent): void;
  /** Bytes of the running command's output, in order (never a mark of its own). */
  output(bytes: Uint8Array): void;
}

/** A sequence still open at the end of a read is held back at most this long; ours are short. */
const MAX_HELD_BYTES = 4096;
/** What was typed at the prompt is kept up to this much, for a command the shell does not name. */
const MAX_ECHO_BYTES = 16 * 1024;
const ESC = 0x1b;
const OSC_START = 0x5d;
const PASTE_MODE = new TextEncoder().encode('\x1b[?2004');
const SET = 0x68;
const RESET = 0x6c;

interface Running {
  nonce: string;
  /** The command as the shell reported it (bash's E mark). */
  command?: string;
}

export class ShellMarkTracker {
  /** Nonces of fallback-wrapped commands that have not ended yet. */
  private readonly expected = new Set<string>();
  private held: Uint8Array = new Uint8Array(0);
  private readonly running: Running[] = [];
  /** Between B and C: what the shell echoes is what is being typed. */
  private atPrompt = false;
  private echo: Uint8Array[] = [];
  private echoBytes = 0;
  private lineReported = false;
  /** The shell reports its line itself (I marks): the echo is not looked at for typing. */
  private lineMarks = false;
  /** A command line the shell named (E) before its D. */
  private named: string | undefined;
  private paste: boolean | null = null;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly nonce: string | null,
    private readonly sink: TrackerSink,
  ) {}

  /** A fallback-wrapped command's marks carry this nonce; they count until its D. */
  expect(nonce: string): void {
    this.expected.add(nonce);
  }

  /** The nonce of the innermost command running, if any. */
  get current(): string | null {
    return this.running.at(-1)?.nonce ?? null;
  }

  /** One read: its bytes, the scanner's events for them, and whether the scanner ended between sequences. */
  feed(chunk: Uint8Array, events: readonly ScannedEvent[], atGround: boolean): void {
    const shift = this.held.length;
    const bytes = shift === 0 ? chunk : concat(this.held, chunk);
    this.held = new Uint8Array(0);
    let position = 0;
    for (const event of events) {
      if (event.type !== 'osc' || event.code !== 133) continue;
      const mark = parseShellMark(event.data);
      const nonce = mark?.fields[NONCE_FIELD];
      if (!mark || nonce === undefined || !(nonce === this.nonce || this.expected.has(nonce))) continue;
      const end = event.end + shift;
      const start = markStart(bytes, end);
      this.text(bytes.subarray(position, start));
      position = end;
      this.onMark(mark, nonce);
    }
    let rest = bytes.subarray(position);
    if (!atGround) {
      const open = openSequenceStart(rest);
      if (open !== -1 && rest.length - open <= MAX_HELD_BYTES) {
        this.held = rest.slice(open);
        rest = rest.subarray(0, open);
      }
    }
    this.text(rest);
  }

  /** Output known to hold no sequence (a skimmed flood). */
  feedPlain(chunk: Uint8Array): void {
    this.feed(chunk, [], true);
  }

  private text(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.running.length === 0) this.notePasteMode(bytes);
    if (this.running.length > 0) {
      this.sink.output(bytes);
      return;
    }
    if (!this.atPrompt || this.echoBytes >= MAX_ECHO_BYTES) return;
    const kept = bytes.subarray(0, MAX_ECHO_BYTES - this.echoBytes);
    this.echo.push(kept.slice());
    this.echoBytes += kept.length;
    if (!this.lineMarks && !this.lineReported && this.echoText() !== '') {
      this.lineReported = true;
      this.sink.event({ kind: 'line', empty: false });
    }
  }

  /** The last bracketed-paste switch in `bytes`, when it changes what was known. */
  private notePasteMode(bytes: Uint8Array): void {
    let on: boolean | null = null;
    for (let at = bytes.indexOf(ESC); at !== -1; at = bytes.indexOf(ESC, at + 1)) {
      let i = 0;
      while (i < PASTE_MODE.length && bytes[at + i] === PASTE_MODE[i]) i++;
      const final = bytes[at + PASTE_MODE.length];
      if (i === PASTE_MODE.length && (final === SET || final === RESET)) on = final === SET;
    }
    if (on === null || on === this.paste) return;
    this.paste = on;
    this.sink.event({ kind: 'paste', on });
  }

  private onMark(mark: ShellMark, nonce: string): void {
    switch (mark.mark) {
      case 'B':
        if (this.running.length > 0) return;
        if (mark.fields.k === 's') {
          this.sink.event({ kind: 'continuation' });
          return;
        }
        this.atPrompt = true;
        this.clearEcho();
        this.sink.event({ kind: 'prompt' });
        return;
      case 'I':
        this.lineMarks = true;
        if (this.running.length === 0) this.sink.event({ kind: 'line', empty: mark.fields.empty === '1' });
        return;
      case 'C': {
        // bash sends C before each command of a line holding several; the first one starts it.
        if (this.running.some((entry) => entry.nonce === nonce)) return;
        const echo = this.echoText();
        this.atPrompt = false;
        this.clearEcho();
        this.running.push({ nonce });
        this.sink.event({ kind: 'start', nonce, echo, ...(mark.fields.cmd !== undefined ? { command: mark.fields.cmd } : {}) });
        return;
      }
      case 'E':
        if (mark.fields.raw !== undefined) this.named = historyCommand(mark.fields.raw);
        return;
      case 'D':
        this.onEnd(mark, nonce);
        return;
    }
  }

  private onEnd(mark: ShellMark, nonce: string): void {
    const exitCode = mark.exitCode ?? null;
    // A fallback wrapper cannot percent-encode its directory in every shell: it sends it verbatim, last.
    const cwd = mark.fields.cwd ?? mark.fields.raw;
    const command = this.named;
    this.named = undefined;
    let index = this.running.length - 1;
    while (index >= 0 && this.running[index].nonce !== nonce) index--;
    if (index === -1) {
      if (nonce !== this.nonce) return; // a fallback nonce's D without its C: nothing to end
      const echo = this.echoText();
      this.atPrompt = false;
      this.clearEcho();
      this.sink.event({ kind: 'end', nonce, ran: false, exitCode, ...(cwd !== undefined ? { cwd } : {}), ...(command !== undefined ? { command } : {}), echo });
      return;
    }
    // Commands started inside this one (a fallback-wrapped command in a nested shell) end with it.
    while (this.running.length > index + 1) {
      const inner = this.running.pop()!;
      this.expected.delete(inner.nonce);
      this.sink.event({ kind: 'end', nonce: inner.nonce, ran: true, exitCode: null });
    }
    this.running.pop();
    if (nonce !== this.nonce) this.expected.delete(nonce);
    this.sink.event({ kind: 'end', nonce, ran: true, exitCode, ...(cwd !== undefined ? { cwd } : {}), ...(command !== undefined ? { command } : {}) });
  }

  private echoText(): string {
    if (this.echo.length === 0) return '';
    return renderText(this.decoder.decode(concat(...this.echo))).trim();
  }

  private clearEcho(): void {
    this.echo = [];
    this.echoBytes = 0;
    this.lineReported = false;
  }
}

/** Where the OSC that ends at `end` starts: the last ESC ] before it (an OSC's data holds no ESC). */
function markStart(bytes: Uint8Array, end: number): number {
  for (let at = end - 2; at >= 0; at--) if (bytes[at] === ESC && bytes[at + 1] === OSC_START) return at;
  return 0;
}

/**
 * Where the sequence still open at the end of `bytes` may start: the last
 * OSC's start when one is near (a read can end on the ESC of an OSC's
 * terminator, ESC \), else the last ESC; -1 when there is none.
 */
function openSequenceStart(bytes: Uint8Array): number {
  for (let at = bytes.length - 2; at >= Math.max(0, bytes.length - MAX_HELD_BYTES); at--) if (bytes[at] === ESC && bytes[at + 1] === OSC_START) return at;
  return bytes.lastIndexOf(ESC);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
