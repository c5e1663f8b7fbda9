/**
 * The wire between the coordinator-side TUI bridge (src/main/tui) and the
 * renderer thread. The renderer owns everything the user sees and every UI
 * decision (focus, palette, toasts); the bridge owns the data (panes, presets,
 * scratchpads) and carries out the commands the renderer asks for.
 *
 * Pure types and constants: both threads import this file.
 */
import type { CellFrame, HistorySlice, PaneKind, PaneOwner, PaneStatus } from './pane-types.js';
import type { PresetKind } from './preset-schema.js';
import type { DirectInputChannel } from './input-lease.js';

/**
 * A MessagePort as far as this pure module needs to know it: the renderer
 * listens on it for the focused pane's frames and closes it when focus moves.
 */
export interface RendererFramePort {
  on(event: 'message', listener: (frame: CellFrame) => void): unknown;
  close(): void;
}

export interface UiPane {
  id: string;
  sessionId: string;
  parentId: string | null;
  name: string;
  kind: PaneKind;
  status: PaneStatus;
  exitCode: number | null;
  signal: string | null;
  owner: PaneOwner;
  title: string;
  /** Its program waits for someone to answer a dialog or question: the tree marks it "needs you". */
  waitingForAnswer?: boolean;
  /** It runs in a git worktree patterm made: the tree shows the branch and how many files are changed. */
  worktree?: { branch: string; changes: number };
  /** A shell pane: whether a command runs, and how the last one ended (the tree shows it). */
  shell?: { running: boolean; lastExitCode: number | null };
}

/** A git worktree patterm made for this project, for the review palette. */
export interface UiWorktree {
  name: string;
  branch: string;
  path: string;
  /** Made by an earlier run of patterm. */
  leftover: boolean;
  /** false once its directory was deleted by hand. */
  present: boolean;
  /** Changed tracked files plus untracked files. */
  changes: number;
  /** Its setup failed (it is kept for inspection). */
  failed: boolean;
}

export interface UiSession {
  id: string;
  name: string;
  rootId: string;
  childIds: string[];
}

export interface UiPreset {
  kind: PresetKind;
  /** The preset's file name without .json: the stable key for spawning and for command IDs. */
  id: string;
  /** The `name` field: what the palette shows. */
  name: string;
  /** Why the preset file could not be loaded; the palette shows it as a disabled entry. */
  error: string | null;
  /** Where it came from, for error messages. */
  source: string;
}

export interface UiScratchpad {
  name: string;
  size: number;
  modifiedAt: number;
}

/** Everything the renderer draws except the focused pane's cells. Small; resent whole on change. */
export interface UiModel {
  sessions: UiSession[];
  panes: Record<string, UiPane>;
  presets: UiPreset[];
  scratchpads: UiScratchpad[];
  worktrees: UiWorktree[];
}

export interface UiConfig {
  /** terminal-kit key name (e.g. "CTRL_N", "ALT_LEFT", "F5") → command ID. */
  keybindings: Record<string, string>;
  autoFocusOnAttention: boolean;
  /** Problems found in config.json, each naming the field; shown once in the status line. */
  errors: string[];
}

/** Messages the bridge sends to the renderer. */
export type ToRendererMessage =
  /** Host terminal input. The renderer thread reads the terminal itself; tests post it. */
  | { t: 'input'; bytes: Uint8Array }
  | { t: 'resize'; cols: number; rows: number }
  | { t: 'model'; model: UiModel }
  | { t: 'config'; config: UiConfig }
  | { t: 'frame'; paneId: string; frame: CellFrame }
  /**
   * The focused pane's worker posts its CellFrames to this port; the previous port is closed.
   * `input`, when present, lets the renderer write the user's keys to the pane's PTY itself.
   */
  | { t: 'frame-port'; paneId: string | null; port: RendererFramePort | null; input?: DirectInputChannel | null }
  /** The shown scratchpad's content: the rail previews its top, the viewer shows it all. */
  | { t: 'preview'; name: string; text: string }
  | { t: 'notice'; text: string; level: NoticeLevel }
  | { t: 'contention'; paneId: string }
  | { t: 'attention'; paneId: string; reason: string }
  | { t: 'cursor-shape'; paneId: string; shape: number }
  /** The pane's program rang the bell (BEL). */
  | { t: 'bell'; paneId: string }
  /** A pane's clipboard write that config.json lets through: written to the host terminal as OSC 52 (validated already). */
  | { t: 'clipboard'; selection: string; base64: string }
  /** Rows of a pane's history the renderer asked for ('history' command). */
  | { t: 'history'; paneId: string; slice: HistorySlice }
  /** The answer to 'history-find': the row number (HistorySlice), or -1 for no match. */
  | { t: 'history-found'; paneId: string; text: string; row: number }
  /** The answer to 'history-prompt': the row number where that command's prompt starts, or -1 for none that way. */
  | { t: 'history-prompt'; paneId: string; row: number; direction: -1 | 1 }
  /** SIGTSTP: give the host terminal back and draw nothing until 'resume'; answered with 'suspended'. */
  | { t: 'suspend' }
  /** SIGCONT: the terminal may have been reset or drawn over; take it again and repaint every cell. */
  | { t: 'resume' }
  | { t: 'shutdown' };

export type NoticeLevel = 'info' | 'warning' | 'error';

/**
 * The history reader's source id for patterm's own log ('history' and
 * 'history-find' name it where they name a pane): no pane id looks like it.
 */
export const LOG_READER_ID = '@patterm-log';

/** Work the renderer asks the bridge to do. */
export type BridgeCommand =
  | { kind: 'write'; paneId: string; bytes: Uint8Array }
  /** The renderer wrote the user's keys to the pane directly: the user owns it now. */
  | { kind: 'typed'; paneId: string }
  | { kind: 'focus'; paneId: string | null }
  /** `preset` is the preset's id (file name); `presetName` its display name, the base of the pane's name. */
  /** With `worktree`, in a new git worktree: true names it after the pane. */
  | { kind: 'spawn-preset'; presetKind: PresetKind; preset: string; presetName: string; initialPrompt?: string; parentId?: string; worktree?: string | true }
  | { kind: 'kill'; paneId: string }
  | { kind: 'close'; paneId: string }
  | { kind: 'set-owner'; paneId: string; owner: PaneOwner }
  | { kind: 'rename'; paneId: string; name: string }
  | { kind: 'select-scratchpad'; name: string | null }
  /** Rows of the pane's scrollback and screen for the history reader, from row number `first` (HistorySlice); `first` < 0 counts from the end. */
  | { kind: 'history'; paneId: string; first: number; count: number }
  /** Find `text` in the pane's history, from row number `from` in `direction` (-1: back in time). */
  | { kind: 'history-find'; paneId: string; text: string; from: number; direction: -1 | 1 }
  /** A new session whose orchestrator is an MCP host outside patterm ("Connect an external orchestrator…"). */
  | { kind: 'connect-host' }
  /** Remove a worktree through the safety checks (force: despite them; an unmerged branch still stays). */
  | { kind: 'worktree-remove'; name: string; force: boolean }
  /** The nearest prompt (a command's start) before row number `from` (-1) or after it (+1). */
  | { kind: 'history-prompt'; paneId: string; from: number; direction: -1 | 1 }
  | { kind: 'quit' };

/** Messages the renderer sends to the bridge. */
export type FromRendererMessage =
  /** The first frame was drawn (or its write failed): once per renderer. */
  | { t: 'ready' }
  /** Sent after 'shutdown': the renderer drew its last byte and put the host modes back. */
  | { t: 'stopped' }
  /** Sent after 'suspend': the host modes are restored and nothing more is drawn until 'resume'. */
  | { t: 'suspended' }
  /** A line for patterm's log; 'warn' for a failure the user may notice (it counts in the status line). */
  | { t: 'log'; text: string; level?: 'info' | 'warn' }
  | { t: 'command'; command: BridgeCommand }
  /** Drawing statistics, for the bench and tests. */
  | { t: 'frame-drawn'; bytes: number; durationMs: number; cells: number };

/** What the bridge passes as workerData when it starts the renderer. */
export interface RendererInit {
  cols: number;
  rows: number;
  /** The host terminal's output. The renderer writes it directly with fs.writeSync. */
  outputFd: number;
  /**
   * The host terminal's input. The renderer reads it itself: keys never wait
   * on the main thread's event loop, which floods keep busy.
   */
  inputFd: number;
  /** An InputActivity's buffer: the renderer records each keystroke there for the coordinator. */
  inputActivity: SharedArrayBuffer;
  /**
   * This run's log and warning count (src/node/patterm-log.ts, RunLogShared):
   * the renderer is booted before the run's log is started, so it is handed them here.
   */
  runLog?: { path: string | null; warnings: SharedArrayBuffer };
}
