/**
 * The data contract between the coordinator, the pane workers, the MCP tools
 * and the renderer. Pure types: no Node APIs (enforced by this folder's tsconfig).
 */

import type { ShellEvent } from './shell-mark-tracker.js';

export type PaneId = string;
export type SessionId = string;

export type PaneStatus = 'running' | 'exited' | 'killed';
export type PaneKind = 'agent' | 'process';
export type PaneOwner = 'user' | 'orchestrator';
export type InputSource = 'user' | 'orchestrator' | 'system';

export interface CursorState {
  x: number;
  y: number;
  visible: boolean;
}

/** A grid read's cursor: where it is in cells, and where that is in its row's text. */
export interface GridCursor extends CursorState {
  /**
   * The UTF-16 index in the row's text (GridSnapshot.lines) of the cell the
   * cursor is on; on the right half of a wide character, that character's
   * index. Past the end of the trimmed text it counts on one per blank column.
   */
  textIndex: number;
}

/** Process facts, as known to the coordinator. */
export interface ProcessInfo {
  pid: number;
  status: PaneStatus;
  exitCode: number | null;
  signal: string | null;
}

/** Plain-text view of the visible screen, as returned by `read_output` grid mode. */
export interface GridSnapshot {
  /** One string per visible row; trailing blanks trimmed; wide chars appear once. */
  lines: string[];
  rows: number;
  cols: number;
  cursor: GridCursor;
  activeScreen: 'primary' | 'alternate';
  /** Increases exactly when the visible screen (cells or cursor) changes. */
  screenVersion: number;
  idleMs: number;
  /** idleMs >= the pane's idle threshold. */
  idle: boolean;
  title: string;
  bracketedPaste: boolean;
  mouseTracking: boolean;
  /** How many times the emulator was rebuilt after a trap (0 when never). */
  emulatorRebuilds: number;
  /** The program has begun a synchronized update (DEC mode 2026) and not ended it: the screen may be half drawn. */
  synchronizedUpdate?: boolean;
  /** Rows (0-based) that differ from the snapshot at `sinceVersion`, when asked for. */
  changedRows?: number[];
  /** When asked for: `lines` with SGR sequences for their styles (styled-line.ts), of the same screen version. */
  styledLines?: string[];
}

export interface StreamChunk {
  /** Raw bytes from `startOffset` to `endOffset` (exclusive). */
  bytes: Uint8Array;
  /** Offset of the first returned byte; > requested offset when bytes were dropped. */
  startOffset: number;
  endOffset: number;
  /** Bytes between the requested offset and `startOffset` that the ring no longer holds. */
  droppedBytes: number;
  /** Total bytes ever written by the child (the write head). */
  headOffset: number;
}

export interface WaitRequest {
  pattern: string;
  flags?: string;
  timeoutMs: number;
  /** Wait until the pattern is absent from the screen instead of present. */
  absent?: boolean;
  /** After the condition holds, also require the screen to be unchanged for this long. */
  stableMs?: number;
  /** Names the wait so that cancelWait() can end it early (the caller gave up). */
  id?: string;
}

export interface WaitResult {
  matched: boolean;
  /** The matching line (or lines) when matched; the last screen tail otherwise. */
  snippet: string;
  screenVersion: number;
  elapsedMs: number;
  /** Set when the wait ended because matching the pattern took too long (pattern-matcher.ts). */
  patternProblem?: string;
}

/**
 * A frame of cells for the renderer. `cells` packs 4 uint32 per cell:
 *   [0] codepoint (0 = empty), [1] fg 0xRRGGBB or DEFAULT_COLOR,
 *   [2] bg 0xRRGGBB or DEFAULT_COLOR, [3] flags (low byte, CellFlag) | width << 8.
 * Multi-codepoint graphemes are in `graphemes`, keyed by cell index.
 */
export interface CellFrame {
  rows: number;
  cols: number;
  cells: Uint32Array;
  graphemes: Record<number, string>;
  cursor: CursorState;
  activeScreen: 'primary' | 'alternate';
  screenVersion: number;
  bracketedPaste: boolean;
  mouseTracking: boolean;
  /** DEC private modes the host terminal should mirror when this pane is focused. */
  modes: { applicationCursor: boolean; mouseSgr: boolean; mouseAnyEvent: boolean; mouseButtonEvent: boolean; mouseX10: boolean; focusEvents: boolean };
}

/**
 * Rows of a pane's history (scrollback, then the screen) for the TUI's history
 * reader. Rows are numbered over the pane's life, not by position: a number
 * names the same line while the scrollback drops its oldest rows under a
 * reader (row-numbering.ts).
 */
export interface HistorySlice {
  /** The rows, as a frame of `frame.rows` rows starting at row number `first`. */
  frame: CellFrame;
  first: number;
  /** Rows in the whole history: scrollback plus the screen (the alternate screen has no scrollback). */
  total: number;
  /**
   * Rows dropped off the top of the scrollback since the history was first
   * read: the number of the oldest row held (held: `dropped` .. `dropped + total - 1`).
   */
  dropped: number;
}

/** Sentinel for "the terminal's default colour" in CellFrame fg/bg. */
export const DEFAULT_COLOR = 0xff000000;

export const enum CellFlag {
  Bold = 1,
  Italic = 2,
  Underline = 4,
  Strikethrough = 8,
  Inverse = 16,
  Invisible = 32,
  Blink = 64,
  Faint = 128,
}

/** Side effects the pane's scanner found in the output stream. */
export type PaneSignal =
  /** A shell pane's command event, from its PTY's command tap (command-tap.ts). */
  | { type: 'shell'; event: ShellEvent }
  | { type: 'title'; title: string }
  | { type: 'bell' }
  | { type: 'prompt-mark'; mark: 'A' | 'B' | 'C' | 'D'; exitCode?: number; offset: number }
  | { type: 'clipboard'; selection: string; base64: string }
  | { type: 'emulator-rebuilt'; reason: string }
  /** DECSCUSR shape (0 default, 1/2 block, 3/4 underline, 5/6 bar; odd numbers blink). */
  | { type: 'cursor-shape'; shape: number }
  /** OSC 9;4 progress (0 removed, 1 value, 2 error, 3 indeterminate, 4 paused). */
  | { type: 'progress'; state: number }
  /** OSC 9 / OSC 777 desktop notification. */
  | { type: 'notification'; text: string };

export interface PaneInfo {
  id: PaneId;
  sessionId: SessionId;
  parentId: PaneId | null;
  name: string;
  kind: PaneKind;
  presetName: string | null;
  argv: string[];
  cwd: string;
  owner: PaneOwner;
  process: ProcessInfo;
  title: string;
  createdAt: number;
  /** The size the pane was spawned with, kept when patterm is resized; absent for a pane that follows patterm's size. */
  ownSize?: PaneSize;
  /** Its program shows a dialog or question that waits for an answer (agent-state-tracker.ts); the tree marks it. */
  waitingForAnswer?: boolean;
  /** A shell pane's commands (src/main/shells/); the tree shows the last one's outcome. */
  shell?: ShellPaneStatus;
  /** How to start it again (src/main/resume/): what it was asked to be, before patterm's own additions. */
  launch?: PaneLaunch;
}

/**
 * What a pane was started as, in the terms a later `patterm --resume` starts it
 * again with. The launcher sets it at spawn; a feature that changes what a
 * restart needs (a shell's directory, a worktree) updates it through
 * Coordinator.updateLaunch, and the layout record follows.
 */
export interface PaneLaunch {
  /** `shell`: an interactive shell pane over a ledger of its own, started again in its last directory. */
  kind: 'agent' | 'process' | 'shell';
  /** The preset's file id ("claude"), or null for a freeform argv. */
  preset: string | null;
  /** The argv as asked for, without patterm's additions (MCP wiring, conversation ids). */
  argv: string[];
  /** spawn_process's `shell`: argv is a command line for `sh -lc`. */
  shell?: boolean;
  /** Environment the caller asked for (not the preset's, which the preset gives again). */
  env?: Record<string, string>;
  /** The working directory as asked for (relative to the project, or `~/…`). */
  workingDir?: string;
  /** The git worktree the pane works in; a resume skips the pane when it is gone. */
  worktree?: { name: string; path: string };
  /** A shell pane's ledger, reopened by name on resume. */
  ledger?: string;
  /** A shell pane's directory when last seen; it starts again there. */
  lastCwd?: string;
  /** The pane that asked for this one (a sub-agent that spawned a process), when not its session root. */
  spawnedBy?: PaneId;
  /** spawn_agent / spawn_process `notify_on_exit`. */
  notifyOnExit?: boolean;
  tags?: string[];
  /** Left out of the layout record (patterm's own resume summary). */
  unrecorded?: boolean;
}

/** A shell pane's state, as its tree entry and list_children show it. */
export interface ShellPaneStatus {
  /** `full`: the shell sends its marks; `fallback`: commands are wrapped with marks of their own; `pending`: no prompt seen yet. */
  integration: 'pending' | 'full' | 'fallback';
  /** A command is running. */
  running: boolean;
  /** The last command's exit code; null before the first, or when it is not known. */
  lastExitCode: number | null;
}

export interface PaneSize {
  cols: number;
  rows: number;
}
