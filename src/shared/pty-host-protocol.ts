/**
 * The wire between the coordinator and its PTY host thread, which owns every
 * pane's PTY (after VS Code's pty host). Three channels:
 *  - Comlink RPC (PtyHostApi) from the coordinator, for commands;
 *  - an events port back to the coordinator (PtyHostEvent), for exits and
 *    shell panes' command events;
 *  - per pane, a data port straight to the pane's worker: output batches one
 *    way, acks and query replies the other, never through the coordinator.
 *
 * Why a thread of its own: reading many flooding PTYs kept the coordinator's
 * event loop and garbage collector busy, and every MCP call and grid read
 * queued behind that (figures: docs/perf-notes.md).
 */
import type { DirectInputChannel } from './input-lease.js';
import type { PaneStatus } from './pane-types.js';
import type { ShellEvent } from './shell-mark-tracker.js';

/** A MessagePort as far as this pure module needs to know it. */
export interface HostPort {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
}

export interface PtySpawnOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Env marker that tags every descendant of this PTY for the reaper. */
  marker: string;
  /** SharedAcks' buffer, shared with the pane's worker: how much of the output it has parsed. */
  acks: SharedArrayBuffer;
  /** The pane emulator's scrollback limit: how much of a flood must be parsed for its end to look right (skim-plan.ts). */
  scrollbackBytes: number;
  /** The pane's output ring (ByteRing capacity): of a skimmed front, only the part the ring keeps is sent to the worker. */
  ringBytes: number;
  /** The output lane's buffer (output-lane.ts), shared with the pane's worker; without one each batch is sent as its own buffer. */
  lane?: SharedArrayBuffer;
  /** A shell pane: its commands are followed through their marks and their output kept (command-tap.ts). */
  shell?: ShellTapOptions;
}

export interface ShellTapOptions {
  /** The pane's nonce, which its integration's marks carry; null for a shell without integration (fallback only). */
  nonce: string | null;
  /** Where each command's output is written, one file per command (the directory exists). */
  outputDir: string;
  /** Starts every output file's name, so files of different panes in one directory never collide. */
  tag: string;
}

export interface PtyExit {
  status: PaneStatus;
  exitCode: number | null;
  signal: string | null;
}

export interface PtySpawned {
  pid: number;
  /** The master and its lease, for writing input from another thread; null when unavailable. */
  input: DirectInputChannel | null;
}

export interface PtyHostInit {
  /** InputActivity's buffer: floods yield to the input recorded there. */
  activity: SharedArrayBuffer;
  /** Where PtyHostEvents go. */
  events: HostPort;
}

export interface PtyHostApi {
  /** Starts the process; its output goes to `dataPort` (the pane worker's end of a channel). */
  spawn(id: string, options: PtySpawnOptions, dataPort: HostPort): PtySpawned;
  write(id: string, data: string | Uint8Array): void;
  resize(id: string, cols: number, rows: number): void;
  /** The TUI shows this pane: its output never yields to input (see ParseScheduler). */
  setFocused(id: string, focused: boolean): void;
  /** How many callers wait on this pane's screen: its output is what they wait for. */
  setAwaited(id: string, count: number): void;
  /** The pane's worker is gone: output is acknowledged here from now on, so the PTY never stalls. */
  consumerGone(id: string): void;
  /** Signals the whole pane tree; SIGKILL whatever is left after `graceMs`. */
  kill(id: string, signal: string, graceMs: number): Promise<void>;
  /** Closes the master without waiting and forgets the pane. */
  destroy(id: string): void;
  /** A shell pane: marks carrying `nonce` (a fallback-wrapped command's) count as the pane's own until its D. */
  expectShellNonce(id: string, nonce: string): void;
  /** Answers once the host thread has booted (Coordinator.prewarm). */
  ping(): void;
}

export type PtyHostEvent =
  | { t: 'exit'; id: string; exit: PtyExit }
  /** A shell pane's command event (command-tap.ts); it comes before the pane's exit. */
  | { t: 'shell'; id: string; event: ShellEvent };
