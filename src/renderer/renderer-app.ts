/**
 * The renderer thread's main object: takes messages from the bridge, keeps the
 * UI state, routes input, and draws frames at a capped rate. It has no Node
 * I/O of its own (the sink and the post function are handed in), so tests and
 * the bench drive it directly.
 */
import { CellBuffer } from './cell-buffer.js';
import { DirectInput } from './direct-input.js';
import type { InputActivity } from '../shared/input-activity.js';
import { Compositor } from './compositor.js';
import { FrameWriter } from './frame-writer.js';
import { ENTER_HOST_MODES, PUSH_TITLE, RESTORE_HOST_MODES } from './host-modes.js';
import { HostModeMirror } from './host-mode-mirror.js';
import { HostTitle } from './host-title.js';
import { InputRouter } from './input-router.js';
import { InputTokenizer } from './input-tokenizer.js';
import type { CellFrame } from '../shared/pane-types.js';
import type { BridgeCommand, FromRendererMessage, RendererFramePort, ToRendererMessage } from '../shared/renderer-protocol.js';
import { UiController } from './ui-controller.js';
import { UiState } from './ui-state.js';
import type { WarningCounter } from '../node/warning-counter.js';
import type { Disposable } from '../shared/events.js';

/** 60 frames a second at most: faster than the eye, and a flooding pane cannot monopolise the terminal. */
export const MIN_FRAME_INTERVAL_MS = 1000 / 60;
/** An Escape with nothing after it for this long is the Escape key, not the start of a sequence. */
const ESCAPE_TIMEOUT_MS = 20;
/** After a focus change, wait this long for the new pane's frame before drawing without it (no flash of blank). */
const AWAIT_FRAME_MS = 50;
/** Attention requests blink at this period. */
const BLINK_INTERVAL_MS = 500;
export const CONTENTION_TOAST = 'Orchestrator is also driving this pane';
/** Rings the host terminal's bell. */
const BEL = '\x07';

export class RendererApp {
  readonly state: UiState;
  readonly controller: UiController;
  private readonly compositor: Compositor;
  private readonly router: InputRouter;
  private readonly tokenizer = new InputTokenizer();
  private readonly writer = new FrameWriter();
  private readonly mirror = new HostModeMirror();
  private readonly title = new HostTitle();
  private readonly directInput = new DirectInput((paneId, bytes) => this.post({ t: 'command', command: { kind: 'write', paneId, bytes } }));
  private buffer: CellBuffer;
  private lastFrameAt = -Infinity;
  /** Cancels the scheduled draw, if one is. */
  private frameTimer: (() => void) | null = null;
  private escapeTimer: ReturnType<typeof setTimeout> | null = null;
  private blinkTimer: ReturnType<typeof setInterval> | null = null;
  private noticeTimer: ReturnType<typeof setTimeout> | null = null;
  private sentFocus: string | null | undefined = undefined;
  private sentScratchpad: string | null | undefined = undefined;
  private awaitingFrame: { paneId: string; since: number } | null = null;
  private stopped = false;
  /** SIGTSTP gave the terminal back: nothing is drawn until 'resume'. */
  private suspended = false;
  /** The focused pane rang the bell since the last frame; the next frame rings the host's. */
  private bellPending = false;
  /** Panes' OSC 52 clipboard writes that config.json lets through, for the next frame. */
  private clipboardWrites = '';
  /** Sent before the next frame: the host modes (and title push) to take the terminal again. */
  private retake = '';
  /** Where the focused pane's worker posts its frames. */
  private framePort: RendererFramePort | null = null;
  private warningWatch: Disposable | null = null;
  /** 'ready' goes once, with the first frame. */
  private readyPosted = false;

  constructor(
    cols: number,
    rows: number,
    private readonly output: (text: string) => void,
    private readonly post: (message: FromRendererMessage) => void,
    /** Post 'frame-drawn' statistics (the bench); off in the TUI, where nobody reads them and each would wake the coordinator. */
    private readonly reportFrames = false,
    /** Where keystrokes are recorded for the coordinator's flood scheduling (see ParseScheduler.yielding). */
    private readonly activity: InputActivity | null = null,
    /** This run's warnings, counted by every thread (patterm-log.ts); the status line shows the count. */
    private readonly warnings: WarningCounter | null = null,
  ) {
    this.state = new UiState(cols, rows);
    this.buffer = new CellBuffer(cols, rows);
    this.compositor = new Compositor(cols, rows);
    this.controller = new UiController(this.state, (command) => this.command(command), () => this.repaint());
    this.router = new InputRouter(this.state, this.controller, this.compositor, (command) => this.command(command));
  }

  start(): void {
    this.output(PUSH_TITLE + ENTER_HOST_MODES);
    if (this.warnings) {
      this.state.warnings = this.warnings.count;
      this.warningWatch = this.warnings.watch((count) => {
        this.state.warnings = count;
        this.scheduleFrame();
      });
    }
    this.scheduleFrame();
  }

  private command(command: BridgeCommand): void {
    if (command.kind === 'write') {
      this.activity?.markInput();
      // Ownership moves before the bytes can reach the pane: an orchestrator that
      // reacts to their echo (wait_for_pattern, then send_input) must find the pane
      // already the user's, or its write would not warn. Sent after the write, this
      // notice lost that race on a loaded machine.
      if (this.state.pane(command.paneId)?.owner !== 'user') this.post({ t: 'command', command: { kind: 'typed', paneId: command.paneId } });
      if (this.directInput.write(command.paneId, command.bytes)) return;
    }
    this.post({ t: 'command', command });
  }

  onMessage(message: ToRendererMessage): void {
    if (this.stopped) return;
    switch (message.t) {
      case 'input':
        this.onInput(message.bytes);
        break;
      case 'resize':
        this.state.cols = message.cols;
        this.state.rows = message.rows;
        this.controller.refitHistory();
        this.buffer = new CellBuffer(message.cols, message.rows);
        this.writer.invalidate();
        break;
      case 'model':
        this.state.applyModel(message.model);
        break;
      case 'config':
        this.state.applyConfig(message.config);
        if (message.config.errors.length > 0) this.controller.notify(`config.json: ${message.config.errors.join('; ')}`, 'error');
        break;
      case 'frame':
        this.state.frame = { paneId: message.paneId, frame: message.frame };
        if (this.awaitingFrame?.paneId === message.paneId) this.awaitingFrame = null;
        break;
      case 'frame-port':
        this.framePort?.close();
        this.framePort = message.port;
        this.directInput.setTarget(message.paneId, message.input ?? null);
        if (message.port && message.paneId) {
          const paneId = message.paneId;
          message.port.on('message', (frame: CellFrame) => this.onMessage({ t: 'frame', paneId, frame }));
        }
        return;
      case 'preview':
        this.state.preview = { name: message.name, text: message.text };
        break;
      case 'notice':
        this.controller.notify(message.text, message.level);
        break;
      case 'contention':
        if (message.paneId === this.state.focusedPaneId()) this.controller.notify(CONTENTION_TOAST, 'warning');
        break;
      case 'attention':
        this.onAttention(message.paneId, message.reason);
        break;
      case 'cursor-shape':
        this.state.cursorShapes.set(message.paneId, message.shape);
        break;
      case 'bell':
        this.onBell(message.paneId);
        break;
      case 'clipboard':
        this.clipboardWrites += `\x1b]52;${message.selection};${message.base64}${BEL}`;
        break;
      case 'history-found':
        this.controller.showHistoryMatch(message.paneId, message.text, message.row);
        break;
      case 'history-prompt':
        this.controller.showPrompt(message.paneId, message.row, message.direction);
        break;
      case 'history':
        if (this.state.history?.paneId === message.paneId) {
          const stale = this.state.history.receive(message.slice);
          const lost = this.state.history.lostNotice;
          if (lost) this.controller.notify(lost, 'warning');
          if (this.state.history.isEmpty && !this.state.history.isLog) this.controller.closeHistory(); // nothing above the screen
          else if (stale) this.controller.requestHistory();
        }
        break;
      case 'suspend':
        this.suspend();
        return;
      case 'resume':
        this.resume();
        break;
      case 'shutdown':
        this.stop();
        return;
    }
    this.afterChange();
  }

  private onInput(bytes: Uint8Array): void {
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    this.escapeTimer = null;
    this.router.handle(this.tokenizer.feed(bytes));
    if (this.tokenizer.hasPending) {
      this.escapeTimer = setTimeout(() => {
        this.escapeTimer = null;
        this.router.handle(this.tokenizer.flush());
        this.afterChange();
      }, ESCAPE_TIMEOUT_MS);
    }
  }

  private onAttention(paneId: string, reason: string): void {
    if (!this.state.pane(paneId)) return;
    const name = this.state.pane(paneId)!.name;
    if (this.state.config.autoFocusOnAttention) {
      this.controller.focusPane(paneId);
      this.controller.notify(`⚑ ${name} needs you: ${reason}`, 'warning');
    } else {
      this.state.attention.set(paneId, { reason, since: performance.now() });
    }
  }

  /** The focused pane's bell rings the host's (the user is looking at it); any other pane's marks its entry. */
  private onBell(paneId: string): void {
    const pane = this.state.pane(paneId);
    if (!pane) return;
    if (paneId === this.state.focusedPaneId()) this.bellPending = true;
    else this.state.bells.add(paneId);
  }

  /**
   * Trusts nothing on the terminal: sends the host modes again and repaints every
   * cell, the mirrored modes and the title ("Redraw screen", and after SIGCONT).
   */
  repaint(): void {
    this.retake ||= ENTER_HOST_MODES;
    this.writer.invalidate();
    this.mirror.invalidate();
    this.title.invalidate();
    this.scheduleFrame();
  }

  /** SIGTSTP: the user's shell gets the terminal as it was before patterm, until SIGCONT. */
  private suspend(): void {
    if (!this.suspended) {
      this.suspended = true;
      this.frameTimer?.();
      this.frameTimer = null;
      try {
        this.output(RESTORE_HOST_MODES);
      } catch (error) {
        this.post({ t: 'log', text: `renderer: restoring the terminal for a suspend failed: ${(error as Error).message}`, level: 'warn' });
      }
    }
    this.post({ t: 'suspended' });
  }

  private resume(): void {
    // After our own suspend the title was popped, so it is pushed again; after a bare SIGSTOP it is still pushed.
    if (this.suspended) this.retake = PUSH_TITLE + ENTER_HOST_MODES;
    this.suspended = false;
    this.repaint();
  }

  /** Keeps the bridge told what to stream and preview, and timers in step with the state. */
  private afterChange(): void {
    const focus = this.state.focusedPaneId();
    if (focus !== this.sentFocus) {
      this.sentFocus = focus;
      this.command({ kind: 'focus', paneId: focus });
      this.awaitingFrame = focus && this.state.frame?.paneId !== focus ? { paneId: focus, since: performance.now() } : null;
      if (focus) this.state.seen(focus);
      // Focusing a pane means looking at it, live: the readers step aside.
      this.controller.closeScratchpad();
      this.controller.closeHistory();
    }
    const scratchpad = this.state.isEmpty ? null : this.state.shownScratchpad();
    if (scratchpad !== this.sentScratchpad) {
      this.sentScratchpad = scratchpad;
      this.command({ kind: 'select-scratchpad', name: scratchpad });
    }
    this.updateTimers();
    this.scheduleFrame();
  }

  private updateTimers(): void {
    if (this.state.attention.size > 0 && !this.blinkTimer) {
      this.blinkTimer = setInterval(() => {
        this.state.blinkOn = !this.state.blinkOn;
        this.scheduleFrame();
      }, BLINK_INTERVAL_MS);
    } else if (this.state.attention.size === 0 && this.blinkTimer) {
      clearInterval(this.blinkTimer);
      this.blinkTimer = null;
      this.state.blinkOn = false;
    }
    const notice = this.state.notice;
    if (notice && !this.noticeTimer) {
      this.noticeTimer = setTimeout(() => {
        this.noticeTimer = null;
        this.state.expireNotice(performance.now());
        this.updateTimers();
        this.scheduleFrame();
      }, Math.max(0, notice.until - performance.now()) + 1);
    }
  }

  /** Draws at once when the last frame is old enough, otherwise when the cap allows. */
  scheduleFrame(): void {
    if (this.frameTimer || this.stopped) return;
    this.drawIn(Math.max(0, this.lastFrameAt + MIN_FRAME_INTERVAL_MS - performance.now()));
  }

  private drawIn(ms: number): void {
    const run = () => {
      this.frameTimer = null;
      this.draw();
    };
    // setImmediate when due now: setTimeout(0) waits at least 1 ms, which an echo would feel.
    if (ms > 0) {
      const timer = setTimeout(run, ms);
      this.frameTimer = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(run);
      this.frameTimer = () => clearImmediate(immediate);
    }
  }

  private draw(): void {
    if (this.stopped || this.suspended) return;
    if (this.awaitingFrame) {
      const waited = performance.now() - this.awaitingFrame.since;
      if (waited < AWAIT_FRAME_MS) {
        this.drawIn(AWAIT_FRAME_MS - waited);
        return;
      }
      this.awaitingFrame = null;
    }
    const started = performance.now();
    const cursor = this.compositor.compose(this.buffer, this.state, this.controller.palette);
    const modes = this.mirror.update(this.state.focusedPane()?.status === 'running' ? this.state.focusedFrame() : null);
    const host = modes + this.title.update(this.state.focusedPane()) + (this.bellPending ? BEL : '') + this.clipboardWrites;
    const frame = this.writer.render(this.buffer, cursor, host);
    // Only a frame that reached the terminal counts against the cap: a keystroke that changed
    // nothing on screen must not delay the echo frame that follows it.
    if (frame.text === '') return;
    this.lastFrameAt = started;
    this.bellPending = false;
    this.clipboardWrites = '';
    const retake = this.retake;
    this.retake = '';
    try {
      this.output(retake + frame.text);
    } catch (error) {
      this.post({ t: 'log', text: `renderer: writing a frame failed: ${(error as Error).message}`, level: 'warn' });
      return;
    } finally {
      // After the first frame, so what the main thread starts then does not compete with drawing it.
      if (!this.readyPosted) this.post({ t: 'ready' });
      this.readyPosted = true;
    }
    if (this.reportFrames) this.post({ t: 'frame-drawn', bytes: frame.text.length, durationMs: performance.now() - started, cells: frame.cells });
  }

  /** Stops drawing and gives the host terminal back; nothing is written after this. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.warningWatch?.dispose();
    this.framePort?.close();
    this.directInput.dispose();
    this.frameTimer?.();
    for (const timer of [this.escapeTimer, this.noticeTimer]) if (timer) clearTimeout(timer);
    if (this.blinkTimer) clearInterval(this.blinkTimer);
    try {
      // Suspended, the terminal was given back already; a second restore would blank the user's title.
      if (!this.suspended) this.output(RESTORE_HOST_MODES);
    } finally {
      this.post({ t: 'stopped' });
    }
  }
}
