/**
 * The coordinator's handle on one pane: its PTY (owned by the PTY host thread,
 * which sends the output straight to the worker) and its worker (emulator,
 * ring, idle clock, waiters). Every read of pane state goes through the
 * worker, or, once the pane has exited and its worker was retired, through
 * what it left (frozen-pane.ts); every byte to the child goes through the PTY.
 */
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import type {
  CellFrame,
  GridSnapshot,
  HistorySlice,
  InputSource,
  PaneInfo,
  PaneSignal,
  StreamChunk,
  WaitRequest,
  WaitResult,
} from '../../shared/pane-types.js';
import { DEFAULT_RING_CAPACITY, DEFAULT_SCROLLBACK_BYTES, type FromWorkerMessage, type PaneCalls, type PaneWorkerApi, type ToWorkerMessage } from '../../shared/pane-protocol.js';
import { Emitter } from '../../shared/events.js';
import { GridMirror } from '../../shared/grid-mirror.js';
import type { PtyExit, ShellTapOptions } from '../../shared/pty-host-protocol.js';
import type { DirectInputChannel } from '../../shared/input-lease.js';
import type { PtyHost } from '../threads/pty-host.js';
import type { RemotePty } from '../threads/remote-pty.js';
import { WorkerClient } from '../threads/worker-client.js';
import { paneEnvironment } from './pane-environment.js';
import { SharedAcks } from '../../shared/shared-acks.js';
import { allocateOutputLane, laneHasUnread } from '../../shared/output-lane.js';
import { WorkerWake } from '../../shared/worker-wake.js';
import { FrozenPane } from './frozen-pane.js';
import { launchPaneWorker, type PaneWorkerLaunch } from '../threads/pane-worker-launch.js';
import { ignoreError, logDegraded, warnError } from '../../node/patterm-log.js';

export interface PaneStartOptions {
  info: Omit<PaneInfo, 'process' | 'title' | 'createdAt'>;
  env?: Record<string, string>;
  cols: number;
  rows: number;
  instanceId: string;
  module: WebAssembly.Module;
  idleThresholdMs?: number;
  ringCapacity?: number;
  /** See PaneWorkerInit.nice. */
  nice?: number;
  /** See PaneWorkerInit.inputActivity. */
  inputActivity?: SharedArrayBuffer;
  /** Starts the worker (the coordinator's spare-pane-worker.ts); a fresh launch without it. */
  launchWorker?: (launch: PaneWorkerLaunch) => Worker;
  /** A shell pane: its PTY follows its commands (PtySpawnOptions.shell). */
  shell?: ShellTapOptions;
}

export interface PaneWaitResult extends WaitResult {
  /** True when the wait ended because the process exited. */
  exited?: boolean;
}

export class Pane {
  readonly info: PaneInfo;
  private readonly client: WorkerClient<PaneWorkerApi>;
  private waitSequence = 0;
  private pty!: RemotePty;
  /** The worker's notices (dirty, signals) in; frame-sink commands out. */
  private readonly eventPort: MessagePort;
  /** Screen-change notices received: each one woke this thread (see onDirtyEmitter). */
  dirtyNotices = 0;
  private disposed = false;
  /** The worker counts parsed bytes here and the PTY host reads them (shared-acks.ts). */
  private readonly acksBuffer = SharedAcks.allocate();
  /** Output batches cross from the PTY host to the worker here (output-lane.ts). */
  private readonly laneBuffer = allocateOutputLane();
  /** Wakes the worker from a flood's sleep for input before each request (input-park.ts). */
  private readonly wake = new WorkerWake();
  /** The worker's settled grid in shared memory: a quiet pane is read without waking its worker. Dropped when the worker is retired. */
  private mirror: GridMirror | null;
  /** After retire(): the exited pane's last state, answering in the worker's place. */
  private frozen: FrozenPane | null = null;
  private retirement: Promise<boolean> | null = null;
  /** Worker calls not yet answered: a pane is not retired under them. */
  private callsInFlight = 0;
  /** The TUI's frame port while this pane is shown after it was frozen (the worker held it before). */
  private frozenFramePort: MessagePort | null = null;

  private readonly onSignalEmitter = new Emitter<PaneSignal>();
  /** The worker posts screen-change notices only while someone listens: each one wakes this thread. */
  private readonly onDirtyEmitter = new Emitter<number>({
    onFirstListenerAdded: () => this.postToWorker({ t: 'screen-notices', on: true }),
    onLastListenerRemoved: () => this.postToWorker({ t: 'screen-notices', on: false }),
  });
  private readonly onExitEmitter = new Emitter<PtyExit>();
  readonly onSignal = this.onSignalEmitter.event;
  readonly onDirty = this.onDirtyEmitter.event;
  readonly onExit = this.onExitEmitter.event;
  exitPromise!: Promise<PtyExit>;
  /** Settles once the worker has booted, or is gone (it never rejects). */
  readonly booted: Promise<void>;
  private markBooted!: () => void;

  /** Starts the worker, then the process on `host`, whose output goes straight to the worker. */
  static async start(options: PaneStartOptions, host: PtyHost): Promise<Pane> {
    const data = new MessageChannel();
    const pane = new Pane(options, data.port2);
    try {
      pane.attach(await host.spawn(options.info.id, pane.spawnOptions(options), data.port1));
    } catch (error) {
      await pane.client.terminate();
      pane.eventPort.close();
      throw error;
    }
    return pane;
  }

  private constructor(options: PaneStartOptions, workerDataPort: MessagePort) {
    const { info, cols, rows } = options;
    this.info = {
      ...info,
      title: '',
      createdAt: Date.now(),
      process: { pid: 0, status: 'running', exitCode: null, signal: null },
    };
    this.booted = new Promise((resolve) => (this.markBooted = resolve));
    const events = new MessageChannel();
    this.eventPort = events.port1;
    const mirrorBuffer = GridMirror.allocate();
    this.mirror = new GridMirror(mirrorBuffer);
    const worker = (options.launchWorker ?? launchPaneWorker)({
      paneId: info.id,
      cols,
      rows,
      module: options.module,
      idleThresholdMs: options.idleThresholdMs,
      ringCapacity: options.ringCapacity,
      nice: options.nice,
      inputActivity: options.inputActivity,
      wake: this.wake.buffer,
      gridMirror: mirrorBuffer,
      acks: this.acksBuffer,
      lane: this.laneBuffer,
      dataPort: workerDataPort,
      eventPort: events.port2,
    });
    this.client = new WorkerClient<PaneWorkerApi>(worker, `pane ${info.id} (${info.name})`, () => this.wake.wake());
    this.eventPort.on('message', (message: FromWorkerMessage) => this.onWorkerMessage(message));
    this.eventPort.unref();
    worker.on('exit', () => this.onWorkerGone());
  }

  private spawnOptions(options: PaneStartOptions) {
    return {
      argv: this.info.argv,
      cwd: this.info.cwd,
      env: paneEnvironment({ inherited: process.env, extra: options.env, instanceId: options.instanceId, paneId: this.info.id }),
      cols: options.cols,
      rows: options.rows,
      marker: `${options.instanceId}/${this.info.id}`,
      acks: this.acksBuffer,
      lane: this.laneBuffer,
      scrollbackBytes: DEFAULT_SCROLLBACK_BYTES,
      ringBytes: options.ringCapacity ?? DEFAULT_RING_CAPACITY,
      ...(options.shell ? { shell: options.shell } : {}),
    };
  }

  private attach(pty: RemotePty): void {
    this.pty = pty;
    this.info.process.pid = pty.pid;
    pty.onShell((event) => this.onSignalEmitter.fire({ type: 'shell', event }));
    this.exitPromise = new Promise((resolve) => {
      pty.onExit((exit) => {
        Object.assign(this.info.process, exit);
        this.onExitEmitter.fire(exit);
        resolve(exit);
      });
    });
    if (this.client.dead) this.onWorkerGone();
  }

  /**
   * A pane without its worker cannot be read or drawn; rather than leave a
   * headless process running, it gets the kill cascade. Nobody is left to ack.
   */
  private onWorkerGone(): void {
    this.markBooted();
    if (this.frozen) return; // retired on purpose: what it left answers now
    this.mirror?.markStale(); // its last screen must not be served as current
    if (!this.pty) return; // still starting: attach() comes back here
    this.pty.consumerGone();
    if (this.running && !this.disposed) void this.pty.kill('SIGTERM', 500).catch(warnError(`killing pane ${this.info.id}, whose worker is gone; its processes may run on`));
  }

  /** The TUI closed this pane's frame port (it shows another pane now). */
  markUnframed(): void {
    this.pty.focused = false;
  }

  /** Frames of this pane go to `port` (the TUI renderer's) after every screen change; null stops. */
  attachFrameSink(port: MessagePort | null): void {
    this.pty.focused = port !== null;
    // Being retired: whichever answers afterwards (what the worker left, or the worker if retiring failed) takes the port.
    if (this.retirement && !this.frozen) void this.retirement.then(() => this.sendFramesTo(port));
    else this.sendFramesTo(port);
  }

  private sendFramesTo(port: MessagePort | null): void {
    if (!this.frozen) {
      this.postToWorker({ t: 'frame-sink', port }, port ? [port] : []);
      return;
    }
    // The screen will not change again: one frame is all the renderer gets.
    this.frozenFramePort?.close();
    this.frozenFramePort = port;
    if (port) void this.frozen.cells().then((frame) => port.postMessage(frame, [frame.cells.buffer as ArrayBuffer]));
  }

  private postToWorker(message: ToWorkerMessage, transfer: MessagePort[] = []): void {
    if (this.disposed || this.retirement) return;
    this.wake.wake();
    this.eventPort.postMessage(message, transfer);
  }

  private onWorkerMessage(message: FromWorkerMessage): void {
    switch (message.t) {
      case 'ready':
        this.markBooted();
        break;
      case 'dirty':
        this.dirtyNotices++;
        this.onDirtyEmitter.fire(message.version);
        break;
      case 'signal':
        if (message.signal.type === 'title') this.info.title = message.signal.title;
        this.onSignalEmitter.fire(message.signal);
        break;
    }
  }

  get running(): boolean {
    return this.pty.exited === null;
  }

  write(data: string | Uint8Array, _source: InputSource = 'user'): void {
    this.pty.write(data);
  }

  /** See RemotePty.expectShellNonce. */
  expectShellNonce(nonce: string): Promise<void> {
    return this.pty.expectShellNonce(nonce);
  }

  /** The worker was retired and what it left answers (see retire()). */
  get retired(): boolean {
    return this.frozen !== null;
  }

  /** Exited, with its worker alive: retire() may succeed now or later. */
  get retirable(): boolean {
    return !this.running && !this.disposed && !this.client.dead && this.frozen === null;
  }

  /** Retiring must wait: a call is pending or the TUI shows the pane (see retire()). */
  get retireBlocked(): boolean {
    return this.callsInFlight > 0 || this.pty.focused;
  }

  /** See PtyProcess.directInput. */
  directInput(): DirectInputChannel | null {
    return this.disposed ? null : this.pty.directInput();
  }

  /**
   * The emulator first, then the PTY, as xterm and tmux do: every byte the
   * program writes after its SIGWINCH is parsed at the new size.
   */
  async resize(cols: number, rows: number): Promise<void> {
    const emulatorResized = this.call((remote) => remote.resize(cols, rows));
    this.pty.resize(cols, rows, emulatorResized);
    await emulatorResized;
  }

  /** From the mirror when it is current (no round trip, and no output waiting in the lane), else from the worker. */
  async grid(sinceVersion?: number, styled = false): Promise<GridSnapshot> {
    const mirrored = this.client.dead || this.retirement || styled || laneHasUnread(this.laneBuffer) ? null : (this.mirror?.read(Date.now()) ?? null);
    if (mirrored && sinceVersion === undefined) return mirrored;
    if (mirrored && mirrored.screenVersion === sinceVersion) return { ...mirrored, changedRows: [] };
    return this.call((remote) => remote.grid(sinceVersion, styled));
  }

  async cells(): Promise<CellFrame> {
    return this.call((remote) => remote.cells());
  }

  async history(first: number, count: number): Promise<HistorySlice> {
    return this.call((remote) => remote.history(first, count));
  }

  /** See PaneWorkerApi.promptRows. */
  async promptRows(): Promise<number[]> {
    return this.call((remote) => remote.promptRows());
  }

  async stream(fromOffset: number, limit?: number): Promise<StreamChunk> {
    return this.call((remote) => remote.stream(fromOffset, limit));
  }

  /** Total bytes of output so far: from the mirror when it is current, else from the worker. */
  async streamHead(): Promise<number> {
    const mirrored = this.client.dead || this.retirement || laneHasUnread(this.laneBuffer) ? null : (this.mirror?.streamHead() ?? null);
    return mirrored ?? (await this.stream(Number.MAX_SAFE_INTEGER, 0)).headOffset;
  }

  async idleMs(): Promise<number> {
    return this.call((remote) => remote.idleMs());
  }

  async idleState(): Promise<{ idleMs: number; thresholdMs: number; idle: boolean }> {
    return this.call((remote) => remote.idleState());
  }

  async setIdleThreshold(ms: number): Promise<void> {
    await this.call((remote) => remote.setIdleThreshold(ms));
  }

  /**
   * Waits for the screen condition; ends early (after a final check) if the
   * process exits, or unmatched as soon as `signal` aborts (the caller gave
   * up: its worker-side waiter must not live on until the timeout).
   */
  async waitFor(request: WaitRequest, signal?: AbortSignal): Promise<PaneWaitResult> {
    const id = `wait-${++this.waitSequence}`;
    const cancel = () => void this.call((remote) => remote.cancelWait(id)).catch(ignoreError(`cancelling ${id} on pane ${this.info.id}`));
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await this.waitUntilDone({ ...request, id }, cancel);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  private async waitUntilDone(request: WaitRequest, cancel: () => void): Promise<PaneWaitResult> {
    const started = performance.now();
    const live = this.call((remote) => remote.waitFor(request));
    if (!this.running) return live;
    const exited = this.exitPromise.then(async (): Promise<PaneWaitResult> => {
      const final = await this.call((remote) => remote.waitFor({ ...request, timeoutMs: 0, stableMs: 0 }));
      return { ...final, exited: true, elapsedMs: Math.round(performance.now() - started) };
    });
    this.pty.awaited++;
    try {
      const result: PaneWaitResult = await Promise.race([live, exited]);
      // The exit answered: the worker-side wait would otherwise live on until its timeout, and hold off retire().
      if (result.exited) cancel();
      return result;
    } finally {
      this.pty.awaited--;
    }
  }

  /** Every worker call goes through here: to the worker, or to what it left once it was retired. */
  private async call<R>(invoke: (remote: PaneCalls) => Promise<R>): Promise<R> {
    if (this.retirement) await this.retirement;
    if (this.frozen) return invoke(this.frozen);
    this.callsInFlight++;
    try {
      return await this.client.call(invoke);
    } finally {
      this.callsInFlight--;
    }
  }

  /**
   * Replaces the worker of an exited pane by what it leaves (its screen, the
   * newest FROZEN_HISTORY_CELLS of its history, its output ring) and ends the
   * worker. Declines (false) while the process runs, while calls to the
   * worker are unanswered (a wait_for_pattern among them), or when the worker
   * is already gone, or while the TUI shows it (the worker holds the
   * renderer's frame port); calls made meanwhile wait for it and are answered
   * by the frozen pane.
   */
  retire(): Promise<boolean> {
    if (this.retirement) return this.retirement;
    if (!this.retirable || this.retireBlocked) return Promise.resolve(false);
    this.retirement = this.freeze();
    return this.retirement;
  }

  private async freeze(): Promise<boolean> {
    try {
      this.frozen = await FrozenPane.collect((read) => this.client.call(read));
    } catch (error) {
      logDegraded(`freezing pane ${this.info.id}; its worker keeps answering, and its memory`, error);
      this.retirement = null; // the worker died meanwhile: calls meet its death as before
      return false;
    }
    this.eventPort.close();
    this.pty.destroy(); // the PTY host lets go of the exited PTY and its port to the worker
    this.mirror = null;
    await this.client.terminate();
    return true;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM', graceMs = 2000): Promise<void> {
    await this.pty.kill(signal, graceMs);
  }

  /** Ends the worker; the PTY must already be dead or be killed by the caller. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.pty.destroy();
    this.eventPort.close();
    this.frozenFramePort?.close();
    await this.client.terminate();
    this.onSignalEmitter.dispose();
    this.onDirtyEmitter.dispose();
    this.onExitEmitter.dispose();
  }

  static newId(): string {
    return randomUUID().slice(0, 8);
  }
}
