/**
 * What the user is looking at: the active session, the focused pane in each
 * session, the latest frame of the focused pane, notices and attention
 * requests. The bridge's model is data; this is the view's own state.
 */
import type { CellFrame } from '../shared/pane-types.js';
import type { NoticeLevel, UiConfig, UiModel, UiPane, UiSession } from '../shared/renderer-protocol.js';
import type { ScratchpadViewer } from './scratchpad-viewer.js';
import type { HistoryReader } from './history-reader.js';

export interface Notice {
  text: string;
  level: NoticeLevel;
  /** performance.now() after which it is gone. */
  until: number;
  /** It says a pane is on its way ("Starting bash…"): gone as soon as a new pane shows up, not after its full time. */
  endsWithNewPane?: boolean;
}

export interface Attention {
  reason: string;
  since: number;
}

const EMPTY_MODEL: UiModel = { sessions: [], panes: {}, presets: [], scratchpads: [], worktrees: [] };

/** Which notices outrank which: a graver one is not replaced by a milder one while it shows. */
const NOTICE_GRAVITY: Record<NoticeLevel, number> = { info: 0, warning: 1, error: 2 };

export class UiState {
  model: UiModel = EMPTY_MODEL;
  config: UiConfig = { keybindings: {}, autoFocusOnAttention: false, errors: [] };
  activeSessionId: string | null = null;
  private readonly focusBySession = new Map<string, string>();
  frame: { paneId: string; frame: CellFrame } | null = null;
  readonly cursorShapes = new Map<string, number>();
  notice: Notice | null = null;
  private nextNotice: { text: string; level: NoticeLevel; durationMs: number; endsWithNewPane: boolean } | null = null;
  readonly attention = new Map<string, Attention>();
  /** Panes that rang the bell while unfocused; the mark stays until the pane is focused. */
  readonly bells = new Set<string>();
  /** The scratchpad the user picked; null means "the most recently modified one". */
  chosenScratchpad: string | null = null;
  preview: { name: string; text: string } | null = null;
  /** The scratchpad open in the main area's reader, over the focused pane; null when the pane shows. */
  viewer: ScratchpadViewer | null = null;
  /** The focused pane's scrollback (or patterm's log), shown in place of its live screen; null when live. */
  history: HistoryReader | null = null;
  /** Warnings patterm logged in this run, from every thread (WarningCounter); the status line shows them. */
  warnings = 0;
  /** Toggled by a timer while something wants attention, to blink it. */
  blinkOn = false;

  constructor(
    public cols: number,
    public rows: number,
  ) {}

  get isEmpty(): boolean {
    return this.model.sessions.length === 0;
  }

  activeSession(): UiSession | null {
    return this.model.sessions.find((session) => session.id === this.activeSessionId) ?? null;
  }

  pane(id: string | null | undefined): UiPane | null {
    return id ? (this.model.panes[id] ?? null) : null;
  }

  focusedPaneId(): string | null {
    const session = this.activeSession();
    if (!session) return null;
    const focused = this.focusBySession.get(session.id);
    return focused && this.sessionPaneIds(session).includes(focused) ? focused : session.rootId;
  }

  focusedPane(): UiPane | null {
    return this.pane(this.focusedPaneId());
  }

  /** The focused pane's frame, when one has arrived for it. */
  focusedFrame(): CellFrame | null {
    const id = this.focusedPaneId();
    return this.frame && this.frame.paneId === id ? this.frame.frame : null;
  }

  sessionPaneIds(session: UiSession): string[] {
    return [session.rootId, ...session.childIds];
  }

  focus(paneId: string): void {
    const pane = this.pane(paneId);
    if (!pane) return;
    this.activeSessionId = pane.sessionId;
    this.focusBySession.set(pane.sessionId, paneId);
    this.seen(paneId);
  }

  switchSession(sessionId: string): void {
    const session = this.model.sessions.find((candidate) => candidate.id === sessionId);
    if (!session) return;
    this.activeSessionId = sessionId;
    this.seen(this.focusedPaneId() ?? '');
  }

  /** The user is looking at the pane now: its attention request and bell mark are answered. */
  seen(paneId: string): void {
    this.attention.delete(paneId);
    this.bells.delete(paneId);
  }

  /**
   * Takes a new model. Panes the user opened get focus as they appear: every new
   * session (only the user opens sessions) and every new user-owned child
   * (children an orchestrator spawns start orchestrator-owned and do not steal focus).
   */
  applyModel(model: UiModel): void {
    const knownSessions = new Set(this.model.sessions.map((session) => session.id));
    const previous = this.model.panes;
    const previousIndex = this.model.sessions.findIndex((session) => session.id === this.activeSessionId);
    this.model = model;
    if (this.notice?.endsWithNewPane && Object.keys(model.panes).some((id) => !previous[id])) this.notice = null;
    const added = model.sessions.find((session) => !knownSessions.has(session.id));
    if (added) this.activeSessionId = added.id;
    for (const pane of Object.values(model.panes)) {
      if (!previous[pane.id] && pane.parentId !== null && pane.owner === 'user') this.focus(pane.id);
    }
    if (!this.activeSession()) {
      // The active session closed: its neighbour takes over, as closing a tab does.
      const fallback = model.sessions[Math.min(Math.max(0, previousIndex), model.sessions.length - 1)];
      this.activeSessionId = fallback?.id ?? null;
    }
    for (const id of [...this.attention.keys()]) if (!model.panes[id]) this.attention.delete(id);
    for (const id of [...this.bells]) if (!model.panes[id]) this.bells.delete(id);
    for (const id of [...this.cursorShapes.keys()]) if (!model.panes[id]) this.cursorShapes.delete(id);
    if (this.frame && !model.panes[this.frame.paneId]) this.frame = null;
    if (this.isEmpty) this.viewer = null; // the blank canvas has no main area to read in
    if (this.history && !this.history.isLog && this.history.paneId !== this.focusedPaneId()) this.history = null;
  }

  applyConfig(config: UiConfig): void {
    this.config = config;
  }

  setNotice(text: string, level: NoticeLevel, durationMs: number, endsWithNewPane = false): void {
    const now = performance.now();
    // A milder notice does not cut a graver one short (a start-up warning stays readable): it shows next.
    if (this.notice && this.notice.until > now && NOTICE_GRAVITY[this.notice.level] > NOTICE_GRAVITY[level]) {
      this.nextNotice = { text, level, durationMs, endsWithNewPane };
      return;
    }
    this.notice = { text, level, until: now + durationMs, endsWithNewPane };
  }

  /** Ends the notice once its time is up, and shows the milder one that waited for it, if any. */
  expireNotice(now: number): void {
    if (!this.notice || this.notice.until > now) return;
    this.notice = null;
    const next = this.nextNotice;
    this.nextNotice = null;
    if (next) this.setNotice(next.text, next.level, next.durationMs, next.endsWithNewPane);
  }

  /** The scratchpad whose preview the rail shows. */
  shownScratchpad(): string | null {
    const pads = this.model.scratchpads;
    if (this.chosenScratchpad && pads.some((pad) => pad.name === this.chosenScratchpad)) return this.chosenScratchpad;
    let latest: string | null = null;
    let latestAt = -Infinity;
    // Files written in one burst share an mtime (the kernel stamps them with a
    // clock that ticks every few ms): the last name of the list, sorted, wins,
    // as it would for pad-01, pad-02... or dated logs.
    for (const pad of pads) {
      if (pad.modifiedAt >= latestAt) {
        latest = pad.name;
        latestAt = pad.modifiedAt;
      }
    }
    return latest;
  }
}
