/**
 * The coordinator: owns the session tree (pane-tree.ts) and every pane's
 * lifecycle. The MCP server and the TUI are thin layers over this API; neither
 * touches a PTY or a worker directly.
 */
import { randomBytes } from 'node:crypto';
import type { DirectInputChannel } from '../shared/input-lease.js';
import { InputActivity } from '../shared/input-activity.js';
import { PtyHost } from './threads/pty-host.js';
import type { MessagePort } from 'node:worker_threads';
import { resolve as resolvePath } from 'node:path';
import type {
  CellFrame,
  GridSnapshot,
  InputSource,
  PaneId,
  PaneInfo,
  PaneKind,
  PaneLaunch,
  PaneOwner,
  PaneSize,
  PaneSignal,
  SessionId,
  ShellPaneStatus,
  StreamChunk,
  HistorySlice,
  WaitRequest,
} from '../shared/pane-types.js';
import { Emitter, type Disposable } from '../shared/events.js';
import type { ShellTapOptions } from '../shared/pty-host-protocol.js';
import { NEEDS_ANSWER, type AgentStateName } from '../shared/agent-state.js';
import { paneNameBase } from '../shared/pane-name.js';
import { Pane, type PaneWaitResult } from './panes/pane.js';
import { loadGhosttyModule } from './threads/wasm-module.js';
import { WorkerBootGate } from './threads/worker-boot-gate.js';
import { SparePaneWorker } from './threads/spare-pane-worker.js';
import { PaneRetirement } from './panes/pane-retirement.js';
import { PaneTree, type PanePlace, type Session } from './panes/pane-tree.js';
import { ignoreError, warnError } from '../node/patterm-log.js';
import { DEFAULT_KILL_GRACE_MS } from '../node/process-reaper.js';
import { PaneAdmission } from './panes/pane-limits.js';
import { returnFreedMemorySoon, tuneAllocator } from './process/allocator.js';
import { tuneJit } from './threads/jit-tuning.js';

export { UnknownPaneError, type Session } from './panes/pane-tree.js';

export interface SpawnRequest {
  argv: string[];
  name?: string;
  kind: PaneKind;
  cwd?: string;
  env?: Record<string, string>;
  /** The pane that asked for this one; its session's root becomes the parent. Omit for a new session. */
  parentId?: PaneId;
  owner?: PaneOwner;
  presetName?: string | null;
  idleThresholdMs?: number;
  /** A size of its own, kept when the panes are resized (setPaneSize); without it the pane follows them. */
  ownSize?: PaneSize;
  /** A shell pane: its PTY follows its commands' marks and keeps their output (src/main/shells/). */
  shell?: ShellTapOptions;
  /** What a resume starts it again as (PaneInfo.launch). */
  launch?: PaneLaunch;
}

export interface PaneSignalEvent {
  paneId: PaneId;
  signal: PaneSignal;
}

/** Size used for panes spawned before any view has reported its size. */
const DEFAULT_SIZE = { cols: 120, rows: 40 };

/**
 * The TUI's (and so the MCP server's) setting for workerNice: at +10 (CPU
 * weight ~10x lower) a flood nobody watches takes the cores only when PTY I/O,
 * the renderer, MCP calls and the watched panes have none to spare; on an idle
 * machine it still runs at full speed. Echo and MCP latency improve; the
 * price is background throughput, as lowered workers lose the CPU to their
 * own producers (figures: docs/perf-notes.md).
 */
export const INTERACTIVE_WORKER_NICE = 10;

const shuttingDownError = () => new Error('patterm is shutting down; no new panes can start');

export class Coordinator {
  readonly instanceId = randomBytes(8).toString('hex');
  private readonly tree = new PaneTree();
  private size = { ...DEFAULT_SIZE };
  private shuttingDown = false;
  /**
   * How much lower than this thread a pane worker runs while it parses a flood
   * nobody watches (its nice increment; see flood-priority.ts). 0, the
   * default, turns it off: a headless coordinator has nobody to protect, and a
   * lowered flood loses the CPU to its own producer (docs/perf-notes.md).
   * Interactive use sets INTERACTIVE_WORKER_NICE.
   */
  workerNice = 0;
  /** Caps on live panes (pane-limits.ts); the app sets `admission.limits` from config.json. */
  readonly admission = new PaneAdmission();
  /** When exited panes give up their workers (tests shorten it). */
  readonly retirement = new PaneRetirement((pane) => !this.shuttingDown && this.tree.find(pane.info.id) === pane);
  /** The pane whose frames go to the TUI renderer. */
  private framedPane: PaneId | null = null;
  /**
   * Where interactive input is recorded (TUI keystrokes, MCP calls): after
   * each, every flooding pane but the shown one holds off parsing for a
   * moment (ParseScheduler.yielding). Shared memory, so the renderer thread
   * records keys and the PTY host reads them without a message.
   */
  readonly inputActivity = new InputActivity();
  /** Owns every PTY; started with the first pane (see pty-host-protocol.ts). */
  private ptyHost: PtyHost | null = null;
  /** A spawn waits here for its turn to boot a worker (see worker-boot-gate.ts). */
  readonly bootGate = new WorkerBootGate();
  /** A pane worker booted ahead of the next spawn, once prewarm() asked for it. */
  readonly spareWorker = new SparePaneWorker(this.bootGate);

  private readonly paneAdded = new Emitter<PaneInfo>();
  private readonly paneChanged = new Emitter<PaneInfo>();
  private readonly paneExited = new Emitter<PaneInfo>();
  private readonly paneSignal = new Emitter<PaneSignalEvent>();
  private readonly contention = new Emitter<PaneInfo>();
  private readonly attention = new Emitter<{ paneId: PaneId; reason: string }>();
  readonly onPaneAdded = this.paneAdded.event;
  readonly onPaneChanged = this.paneChanged.event;
  readonly onPaneExited = this.paneExited.event;
  readonly onPaneSignal = this.paneSignal.event;
  /** The orchestrator wrote to a pane the user currently owns. */
  readonly onContention = this.contention.event;
  readonly onAttention = this.attention.event;

  constructor(readonly projectDir: string = process.cwd()) {
    tuneAllocator();
  }

  // ---- tree ---------------------------------------------------------------------

  listSessions(): Session[] {
    return this.tree.listSessions();
  }

  session(id: SessionId): Session | undefined {
    return this.tree.session(id);
  }

  info(id: PaneId): PaneInfo {
    return this.pane(id).info;
  }

  has(id: PaneId): boolean {
    return this.tree.has(id);
  }

  allPanes(): PaneInfo[] {
    return this.tree.all().map((pane) => pane.info);
  }

  children(id: PaneId): PaneInfo[] {
    return this.tree.children(id).map((pane) => pane.info);
  }

  private pane(id: PaneId): Pane {
    return this.tree.get(id);
  }

  // ---- lifecycle ----------------------------------------------------------------

  /** The size every pane without one of its own should have (the main area of the TUI, or a default when headless). */
  setPaneSize(cols: number, rows: number): void {
    this.size = { cols: Math.max(1, cols), rows: Math.max(1, rows) };
    for (const pane of this.tree.all()) if (pane.running && !pane.info.ownSize) void pane.resize(this.size.cols, this.size.rows).catch(ignoreError(`resizing pane ${pane.info.id}`));
  }

  get paneSize(): { cols: number; rows: number } {
    return { ...this.size };
  }

  async spawn(request: SpawnRequest): Promise<PaneInfo> {
    if (this.shuttingDown) throw shuttingDownError();
    if (request.argv.length === 0 || request.argv[0] === '') throw new Error('argv must name a program to run (received an empty argv)');
    // Before the pane's output path first runs; not at start-up, which the change would slow.
    tuneJit();
    const module = await loadGhosttyModule();
    const place = this.tree.place(Pane.newId(), request.parentId, request.name, paneNameBase(request.presetName ?? '', basename(request.argv[0]), request.kind));
    const admitted = this.admission.admit(place, this.tree.all(), this.tree.session(place.sessionId)?.name ?? '');
    try {
      return await this.startAdmitted(request, place, module);
    } finally {
      admitted.release();
    }
  }

  private async startAdmitted(request: SpawnRequest, place: PanePlace, module: WebAssembly.Module): Promise<PaneInfo> {
    const pane = await this.bootGate.start(() => {
      if (this.shuttingDown) throw shuttingDownError();
      return this.startPane(request, place, module);
    });
    const refusal = this.shuttingDown ? shuttingDownError() : this.tree.add(pane) ? null : new Error(`the session of parent ${place.parentId} was closed while this pane started`);
    if (refusal) {
      await pane.kill('SIGKILL', 0).catch(warnError(`killing pane ${pane.info.id}, refused a place in the tree; its processes may run on`));
      await pane.dispose();
      throw refusal;
    }
    pane.onSignal((signal) => {
      if (signal.type === 'title') this.paneChanged.fire(pane.info);
      this.paneSignal.fire({ paneId: place.id, signal });
    });
    pane.onExit(() => this.onExit(pane));
    this.paneAdded.fire(pane.info);
    return pane.info;
  }

  /**
   * Gets ready for spawns before they come (the app at start-up): the PTY host
   * thread boots, and from now on one pane worker is kept booted ahead of the
   * next spawn (spare-pane-worker.ts). Settles once both are up.
   */
  async prewarm(): Promise<void> {
    await loadGhosttyModule();
    if (this.shuttingDown) return;
    await Promise.all([this.startedPtyHost().ready(), this.spareWorker.keep()]);
  }

  /** The PTY host, started (again, after a crash) with the first pane that needs it. */
  private startedPtyHost(): PtyHost {
    if (!this.ptyHost || this.ptyHost.dead) this.ptyHost = new PtyHost(this.inputActivity);
    return this.ptyHost;
  }

  private startPane(request: SpawnRequest, place: PanePlace, module: WebAssembly.Module): Promise<Pane> {
    const host = this.startedPtyHost();
    return Pane.start({
      info: {
        ...place,
        kind: request.kind,
        presetName: request.presetName ?? null,
        argv: request.argv,
        cwd: resolvePath(this.projectDir, request.cwd ?? '.'),
        owner: request.owner ?? 'user',
        ...(request.ownSize ? { ownSize: { ...request.ownSize } } : {}),
        ...(request.launch ? { launch: { ...request.launch } } : {}),
      },
      env: request.env,
      cols: request.ownSize?.cols ?? this.size.cols,
      rows: request.ownSize?.rows ?? this.size.rows,
      instanceId: this.instanceId,
      module,
      idleThresholdMs: request.idleThresholdMs,
      nice: this.workerNice,
      inputActivity: this.inputActivity.buffer,
      launchWorker: (launch) => this.spareWorker.launch(launch),
      shell: request.shell,
    }, host);
  }

  private onExit(pane: Pane): void {
    this.retirement.scheduleAfterExit(pane);
    this.paneExited.fire(pane.info);
    this.paneChanged.fire(pane.info);
    // A session lives as long as its root: when the root exits, its children are ended too.
    if (this.tree.isSessionRoot(pane.info.id)) {
      for (const child of this.tree.children(pane.info.id)) {
        if (child.running) void child.kill('SIGTERM', DEFAULT_KILL_GRACE_MS).catch(warnError(`killing ${child.info.id}, child of an exited session root; it may run on`));
      }
    }
  }

  /**
   * Changes what a resume would start the pane again as (a shell's last
   * directory, its worktree); the layout record follows through onPaneChanged.
   */
  updateLaunch(id: PaneId, patch: Partial<PaneLaunch>): void {
    const pane = this.pane(id);
    if (!pane.info.launch) throw new Error(`pane ${id} (${pane.info.name}) was not started with launch facts, so there is nothing to update`);
    pane.info.launch = { ...pane.info.launch, ...patch };
    this.paneChanged.fire(pane.info);
  }

  rename(id: PaneId, name: string): void {
    this.paneChanged.fire(this.tree.rename(id, name).info);
  }

  async kill(id: PaneId, signal: NodeJS.Signals = 'SIGTERM', graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
    await this.pane(id).kill(signal, graceMs);
  }

  /** Removes an exited pane (or a whole session, when given its root) from the tree. */
  async close(id: PaneId): Promise<void> {
    const pane = this.pane(id);
    const ids = this.tree.closingWith(id);
    await Promise.all(ids.map((paneId) => this.tree.find(paneId)?.kill('SIGTERM', DEFAULT_KILL_GRACE_MS)));
    for (const paneId of ids) {
      const removed = this.tree.remove(paneId);
      if (removed) this.retirement.forget(removed);
      await removed?.dispose();
    }
    returnFreedMemorySoon();
    this.paneChanged.fire(pane.info);
  }

  /** Quitting ends everything patterm started: every pane gets SIGTERM, then SIGKILL after the grace window; workers end. */
  async shutdown(graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
    this.shuttingDown = true;
    const panes = this.tree.all();
    await Promise.all(panes.map((pane) => pane.kill('SIGTERM', graceMs).catch(warnError(`killing pane ${pane.info.id} at shutdown; the watchdog ends what is left`))));
    await Promise.all(panes.map((pane) => pane.dispose().catch(ignoreError(`disposing pane ${pane.info.id} at shutdown`))));
    this.tree.clear();
    await this.spareWorker.dispose();
    await this.ptyHost?.dispose();
    this.ptyHost = null;
  }

  // ---- I/O ------------------------------------------------------------------------

  write(id: PaneId, data: string | Uint8Array, source: InputSource): void {
    const pane = this.pane(id);
    if (source === 'user') this.noteUserInput(id);
    else if (source === 'orchestrator' && pane.info.owner === 'user' && pane.info.parentId !== null) {
      this.contention.fire(pane.info);
    }
    pane.write(data, source);
  }

  /** The user typed into the pane (directly or through write()): they own it now. */
  noteUserInput(id: PaneId): void {
    if (this.has(id) && this.pane(id).info.owner !== 'user') this.setOwner(id, 'user');
  }

  /**
   * The pane's PTY master and its lease, so the TUI renderer can write the
   * user's keystrokes without a hop through this thread; null when the pane
   * cannot take direct input (ending, or the drain fence is unavailable).
   */
  directInput(id: PaneId): DirectInputChannel | null {
    return this.has(id) ? this.pane(id).directInput() : null;
  }

  setOwner(id: PaneId, owner: PaneOwner): void {
    const pane = this.pane(id);
    if (pane.info.owner === owner) return;
    pane.info.owner = owner;
    this.paneChanged.fire(pane.info);
  }

  /** The pane's agent state changed (agent-state-tracker.ts); the tree marks the panes that wait for an answer. */
  setAgentState(id: PaneId, state: AgentStateName): void {
    const pane = this.tree.find(id);
    const waiting = NEEDS_ANSWER.has(state);
    if (!pane || (pane.info.waitingForAnswer ?? false) === waiting) return;
    pane.info.waitingForAnswer = waiting;
    this.paneChanged.fire(pane.info);
  }

  /** A shell pane's commands changed (src/main/shells/); its tree entry shows them. */
  setShellStatus(id: PaneId, status: ShellPaneStatus): void {
    const pane = this.tree.find(id);
    if (!pane) return;
    const before = pane.info.shell;
    if (before && before.integration === status.integration && before.running === status.running && before.lastExitCode === status.lastExitCode) return;
    pane.info.shell = { ...status };
    this.paneChanged.fire(pane.info);
  }

  /** A shell pane: marks with `nonce` count as its own from when this settles (a fallback-wrapped command's). */
  async expectShellNonce(id: PaneId, nonce: string): Promise<void> {
    await this.pane(id).expectShellNonce(nonce);
  }

  requestAttention(id: PaneId, reason: string): void {
    this.pane(id);
    this.attention.fire({ paneId: id, reason });
  }

  /** With `styled`, the snapshot carries styledLines too (never from the shared-memory mirror, which holds text only). */
  async grid(id: PaneId, sinceVersion?: number, styled = false): Promise<GridSnapshot> {
    return this.pane(id).grid(sinceVersion, styled);
  }

  async cells(id: PaneId): Promise<CellFrame> {
    return this.pane(id).cells();
  }

  /**
   * The pane's worker posts a CellFrame to `port` now and after every screen
   * change, until the port closes or another is attached: the TUI's focused
   * pane reaches the renderer thread without a round trip through this thread.
   */
  attachFrameSink(id: PaneId, port: MessagePort): void {
    // One pane is shown at a time: the previous one's renderer port is closed by now.
    if (this.framedPane !== id) this.clearFrameSink();
    this.framedPane = id;
    this.pane(id).attachFrameSink(port);
  }

  /** No pane is shown now: the last one shown stops counting as the user's (see ParseClient.yieldsToInput). */
  clearFrameSink(): void {
    if (this.framedPane !== null && this.has(this.framedPane)) this.pane(this.framedPane).markUnframed();
    this.framedPane = null;
  }

  /** Rows of the pane's scrollback and screen, for the TUI's history reader. */
  async history(id: PaneId, first: number, count: number): Promise<HistorySlice> {
    return this.pane(id).history(first, count);
  }

  /** Where the pane's prompts started, as history row numbers (the history reader's jumps between commands). */
  async promptRows(id: PaneId): Promise<number[]> {
    return this.pane(id).promptRows();
  }

  async stream(id: PaneId, fromOffset: number, limit?: number): Promise<StreamChunk> {
    return this.pane(id).stream(fromOffset, limit);
  }

  /** Where the pane's output log ends now: the offset a stream read "from now" starts at. */
  async streamHead(id: PaneId): Promise<number> {
    return this.pane(id).streamHead();
  }

  /**
   * Calls `listener` after each change of the pane's screen (coalesced, at most
   * one per few ms). Per pane, not global: a pane's worker sends these notices
   * only while someone listens, since each one wakes this thread. An unknown
   * pane has nothing to report.
   */
  onScreenDirty(id: PaneId, listener: (version: number) => void): Disposable {
    return this.tree.find(id)?.onDirty(listener) ?? { dispose: () => undefined };
  }

  /** See Pane.waitFor; `signal` lets a caller that gave up end the wait at once. */
  async waitFor(id: PaneId, request: WaitRequest, signal?: AbortSignal): Promise<PaneWaitResult> {
    return this.pane(id).waitFor(request, signal);
  }

  async idleState(id: PaneId): Promise<{ idleMs: number; thresholdMs: number; idle: boolean }> {
    return this.pane(id).idleState();
  }

  exitPromise(id: PaneId) {
    return this.pane(id).exitPromise;
  }

  /** Test hook: the exited pane's worker was retired (see RETIRE_AFTER_EXIT_MS). */
  workerRetired(id: PaneId): boolean {
    return this.pane(id).retired;
  }

  /** Test hook: how many screen-change notices the pane's worker has sent this thread. */
  screenNoticeCount(id: PaneId): number {
    return this.pane(id).dirtyNotices;
  }

}

function basename(path: string): string {
  return path.split('/').pop() || path;
}
