/**
 * The life of one child on a PTY, in the PTY host: spawn, input, resize,
 * kill, and its exit, which is final only once every byte it wrote has been
 * parsed (the output pump, pty-process.ts, says when). Reading is paused and
 * resumed here at the pump's request, except while the exit drains.
 */
import type { Socket } from 'node:net';
import * as pty from 'node-pty';
import type { PtyExit, PtySpawnOptions } from '../shared/pty-host-protocol.js';
import { Emitter } from '../shared/events.js';
import type { DirectInputChannel } from '../shared/input-lease.js';
import { describePtyExit } from '../shared/pty-exit.js';
import { killPaneTree } from '../node/process-reaper.js';
import { logIgnored, pattermLog } from '../node/patterm-log.js';
import { PtySlave } from './pty-slave.js';
import { readIntoReusedBuffer } from './reused-read-buffer.js';

/** Said once per thread: it holds for every PTY. */
let reportedAllocatedReads = false;

/** What node-pty reported when the child exited (`signal` 0: none). */
interface RawExit {
  exitCode: number;
  signal: number;
}

/** Where the child is in its life; an exit cannot be final before it is reported. */
type LifePhase =
  /** Running. `killRequested`: someone asked it to end, so its exit reads 'killed'. */
  | { kind: 'running'; killRequested: boolean }
  /** node-pty reported the exit; output it wrote may still be on its way to the worker. */
  | { kind: 'exit-draining'; raw: RawExit; killRequested: boolean }
  /** Exited, and every byte it wrote delivered: onExit has fired. */
  | { kind: 'exited'; exit: PtyExit };

/** What the output pump hears from the PTY. */
export interface PtyListener {
  /** A read from the master (never empty), in a buffer reused for the next read: copy what is kept. */
  onData(data: Buffer): void;
  /** The exit was reported, one macrotask on, so output node-pty still had queued came first. */
  onExitReported(): void;
}

export class PtyLifecycle {
  private readonly pty: pty.IPty;
  /** Our own hold on the slave: a fast exit's last output, and keystrokes from another thread (pty-slave.ts). */
  private readonly slave: PtySlave;
  private phase: LifePhase = { kind: 'running', killRequested: false };
  private readingPaused = false;
  private readonly onExitEmitter = new Emitter<PtyExit>();
  /** Fires once the process has exited and every byte it wrote was delivered. */
  readonly onExit = this.onExitEmitter.event;
  cols: number;
  rows: number;

  constructor(
    private readonly options: PtySpawnOptions,
    listener: PtyListener,
  ) {
    const [file, ...args] = options.argv;
    this.cols = options.cols;
    this.rows = options.rows;
    this.pty = pty.spawn(file, args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
      encoding: null,
    } as pty.IPtyForkOptions);
    const onRead = (raw: Buffer) => {
      const data = this.slave.filter(raw);
      if (data.length > 0) listener.onData(data);
    };
    if (!readIntoReusedBuffer((this.pty as unknown as { _socket: Socket })._socket, onRead)) {
      if (!reportedAllocatedReads) pattermLog("this Node's sockets cannot read into a reused buffer: each PTY read is allocated, and a flooding pane holds more memory");
      reportedAllocatedReads = true;
      this.pty.onData((raw) => onRead(raw as unknown as Buffer));
    }
    this.pty.onExit((event) => this.onRawExit(event, listener));
    this.slave = new PtySlave(this.pty, () => this.startDrain());
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** How it ended, once that is final (exited and drained); null before. */
  get exit(): PtyExit | null {
    return this.phase.kind === 'exited' ? this.phase.exit : null;
  }

  /** Its exit was reported and is waiting for its last output to be delivered. */
  get exitDraining(): boolean {
    return this.phase.kind === 'exit-draining';
  }

  get paused(): boolean {
    return this.readingPaused;
  }

  /** Pausing now would hold back the exit's drain marker: node-pty gives up on the socket if it waits (see startDrain). */
  get mayPause(): boolean {
    return !this.readingPaused && !this.slave.draining;
  }

  pause(): void {
    this.readingPaused = true;
    this.pty.pause();
  }

  resume(): void {
    this.readingPaused = false;
    this.pty.resume();
  }

  /** The master fd and its lease, for writing input from another thread; null once the pane is ending. */
  directInput(): DirectInputChannel | null {
    return this.phase.kind === 'running' ? this.slave.directInput() : null;
  }

  write(data: string | Uint8Array): void {
    if (this.phase.kind !== 'running' || data.length === 0) return;
    this.pty.write(typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as string);
  }

  resize(cols: number, rows: number): void {
    if (this.phase.kind !== 'running') return;
    try {
      this.pty.resize(cols, rows);
      this.cols = cols;
      this.rows = rows;
    } catch (error) {
      // The process may exit between the check and the ioctl.
      logIgnored(`resizing pid ${this.pid} to ${cols}x${rows}`, error);
    }
  }

  /** Signal the whole pane tree; SIGKILL whatever is left after `graceMs`. */
  async kill(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    // Once the root is reaped its pid may be another process's: only the pane's marker identifies what it left running.
    if (this.phase.kind === 'exited' || this.slave.reaped) return killPaneTree(null, this.options.marker, signal, graceMs);
    this.phase.killRequested = true;
    await killPaneTree(this.pty.pid, this.options.marker, signal, graceMs);
  }

  /** Every byte the child wrote was delivered: its exit is final, and onExit fires. */
  finish(): void {
    if (this.phase.kind !== 'exit-draining') return;
    const exit = describePtyExit(this.phase.raw, this.phase.killRequested);
    this.phase = { kind: 'exited', exit };
    this.onExitEmitter.fire(exit);
  }

  /** Closes the master without waiting: the kernel hangs up the child's session. */
  hangUp(): void {
    this.slave.release();
    if (this.slave.reaped || this.phase.kind !== 'running') return; // its pid may already belong to an unrelated process
    try {
      this.pty.kill('SIGHUP');
    } catch (error) {
      logIgnored(`hanging up pid ${this.pid}`, error);
    }
  }

  private startDrain(): void {
    if (this.slave.startDrain() && this.readingPaused) this.resume();
  }

  private onRawExit(event: { exitCode: number; signal?: number }, listener: PtyListener): void {
    this.slave.revokeInput();
    // node-pty reports the exit once the stream has closed: nothing is read after this, so what the drain held back goes now.
    const held = this.slave.takeHeld();
    if (held.length > 0) listener.onData(held);
    const killRequested = this.phase.kind === 'running' && this.phase.killRequested;
    this.phase = { kind: 'exit-draining', raw: { exitCode: event.exitCode, signal: event.signal ?? 0 }, killRequested };
    // node-pty can report exit while output is still queued in the socket; let it drain.
    setImmediate(() => listener.onExitReported());
  }
}
