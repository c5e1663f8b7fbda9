/**
 * The wire between the coordinator and a pane worker. Two channels:
 *  - Comlink RPC (PaneWorkerApi) for requests that expect an answer;
 *  - a dedicated MessagePort for the high-rate byte stream and the worker's
 *    notifications, so output never queues behind RPC traffic or vice versa.
 */
import type { CellFrame, GridSnapshot, HistorySlice, PaneSignal, StreamChunk, WaitRequest, WaitResult } from './pane-types.js';
import type { ScannedEvent } from './sequence-scanner.js';
import type { PackedRows } from './compact-rows.js';
import type { LaneSpan } from './output-lane.js';

export interface PaneWorkerInit {
  paneId: string;
  cols: number;
  rows: number;
  ringCapacity: number;
  scrollbackBytes: number;
  idleThresholdMs: number;
  version: string;
  /** Raise the worker thread's nice value by this much while it parses a flood nobody watches (0 or absent: never); see flood-priority.ts. */
  nice?: number;
  /**
   * A GridMirror buffer (grid-mirror.ts, from GridMirror.allocate()): the worker
   * publishes its settled grid there, for the coordinator to read without RPC.
   */
  gridMirror?: SharedArrayBuffer;
  /** SharedAcks' buffer (shared-acks.ts), shared with the PTY host: the worker counts the bytes it has parsed there. */
  acks: SharedArrayBuffer;
  /** The output lane's buffer (output-lane.ts), shared with the PTY host: where most output batches arrive. */
  lane?: SharedArrayBuffer;
  /** The coordinator's InputActivity buffer: a flood nobody watches sleeps between slices while input is recent (input-park.ts). */
  inputActivity?: SharedArrayBuffer;
  /** A WorkerWake buffer (worker-wake.ts): the pane bumps it before each request, ending such a sleep. */
  wake?: SharedArrayBuffer;
}


/**
 * What a spare pane worker (src/main/threads/spare-pane-worker.ts) posts on its
 * parentPort once booted. Its next message there makes it a pane's: the
 * PaneWorkerInit, the WASM module and the two ports a launch would have put in
 * its workerData.
 */
export const SPARE_READY = 'patterm:spare-ready';

export interface PaneWorkerApi {
  resize(cols: number, rows: number): void;
  grid(sinceVersion?: number, styled?: boolean): GridSnapshot;
  cells(): CellFrame;
  /** `count` rows of the history from row number `first` (HistorySlice; clamped to what there is). */
  history(first: number, count: number): HistorySlice;
  stream(fromOffset: number, limit?: number): StreamChunk;
  waitFor(request: WaitRequest): Promise<WaitResult>;
  /** Ends the wait with this WaitRequest.id now, unmatched. */
  cancelWait(id: string): void;
  idleMs(): number;
  idleState(): { idleMs: number; thresholdMs: number; idle: boolean };
  setIdleThreshold(ms: number): void;
  /**
   * The row numbers (HistorySlice) where prompts started (OSC 133 A marks),
   * oldest first: the history reader jumps between commands by them. Rows
   * renumbered by a resize are forgotten.
   */
  promptRows(): number[];
  /**
   * What an exited pane leaves when its worker is retired (frozen-pane.ts):
   * its last grid and screen, its newest history rows up to `historyCells`
   * cells (rows of the pane's width), packed, and its output ring. Cloned,
   * not transferred, so that nothing the coordinator keeps was allocated by
   * this soon-ended thread.
   */
  remains(historyCells: number): PaneRemains;
}

export interface PaneRemains {
  grid: GridSnapshot;
  cells: CellFrame;
  history: PackedRows;
  /** The number of the first row in `history` (HistorySlice.first), so the retired pane numbers its rows as the worker did. */
  historyFirst: number;
  ring: StreamChunk;
  idleThresholdMs: number;
  /** See PaneWorkerApi.promptRows. */
  promptRows: number[];
}

/** The worker API as the coordinator calls it, over Comlink or on a frozen pane (frozen-pane.ts): every answer is a promise. */
export type PaneCalls = {
  [K in keyof PaneWorkerApi]: (...args: Parameters<PaneWorkerApi[K]>) => Promise<Awaited<ReturnType<PaneWorkerApi[K]>>>;
};

/**
 * A MessagePort as far as this pure module needs to know it: where a worker
 * pushes the focused pane's frames straight to the TUI renderer thread.
 */
export interface FramePort {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
}

/**
 * Output bytes, already scanned by the PTY host (which has CPU to spare in a
 * flood, while the worker's parse is the bottleneck): `scanned` holds the
 * scanner's events in the batch, and whether the stream is between sequences
 * at its end. It comes as one of three kinds, below.
 */
export type OutputMessage = LaneBatchMessage | LaneDrainMessage | CopiedBatchMessage | SkimMessage;

/**
 * A batch in the pane's output lane (output-lane.ts), announced: the worker
 * first takes the frames left unannounced before it. `flooding`: part of a
 * sustained flood, not a redraw or an echo.
 */
export interface LaneBatchMessage {
  t: 'lane-batch';
  span: LaneSpan;
  flooding: boolean;
  scanned: ScannedBatch;
}

/** Frames were left in the lane unannounced (no scanned events, nobody watching): take them now. */
export interface LaneDrainMessage {
  t: 'lane-drain';
}

/** A batch in its own transferred buffer: for a pane with no output lane. */
export interface CopiedBatchMessage {
  t: 'copied-batch';
  bytes: Uint8Array;
  flooding: boolean;
  scanned: ScannedBatch;
}

/**
 * A skimmed front (skim-plan.ts), always part of a flood: the ring keeps
 * `bytes`, and the emulator parses `digest` instead. `skipped` counts output
 * before `bytes` that the ring would not have kept, counted but not sent.
 * `bytes` is the PTY host's buffer, to be sent back ('recycle') once copied.
 */
export interface SkimMessage {
  t: 'skim';
  bytes: Uint8Array;
  digest: Uint8Array;
  skipped: number;
  scanned: ScannedBatch;
}

export type ToWorkerMessage =
  | OutputMessage
  /** Push a CellFrame to this port now and after every screen change; null stops. */
  | { t: 'frame-sink'; port: FramePort | null }
  /** Whether the coordinator wants 'dirty' notices: only while something there listens for this pane's changes. */
  | { t: 'screen-notices'; on: boolean };

export type FromWorkerMessage =
  /** The worker has booted: its emulator exists and it takes RPC and output. */
  | { t: 'ready' }
  /** The worker parsed more; sent only while the PTY host asks for it (shared-acks.ts). */
  | { t: 'ack' }
  | { t: 'reply'; data: string }
  /** A buffer the PTY host lent with a skim (SkimMessage), copied and handed back for the next one. */
  | { t: 'recycle'; buffer: ArrayBuffer }
  | { t: 'signal'; signal: PaneSignal }
  | { t: 'dirty'; version: number };

/**
 * Flow control, after VS Code's pty host: the coordinator pauses the PTY when
 * more than HIGH bytes are sent but not yet parsed, and resumes below LOW.
 * HIGH keeps a fast parser busy between round trips; LOW resumes reading well
 * before it starves (parse rates: docs/perf-notes.md).
 */
export const FLOW_HIGH_WATERMARK_BYTES = 2 * 1024 * 1024;
export const FLOW_LOW_WATERMARK_BYTES = 512 * 1024;

/** Default raw output kept per pane for read_output's stream mode. */
export const DEFAULT_RING_CAPACITY = 1024 * 1024;
/** Default idle threshold: quiet this long and a pane counts as idle (a preset's idle_threshold_ms overrides it). */
export const DEFAULT_IDLE_THRESHOLD_MS = 1000;
/**
 * ghostty-web's scrollback limit, which is bytes of page memory, not lines.
 * The TUI's history reader shows it (history-reader.ts). This size keeps
 * about as many lines as tmux's default at common widths without growing the
 * instance's WASM memory past ghostty's minimum; twice as much doubles the
 * memory, which across many panes costs more than the lines are worth
 * (figures: docs/perf-notes.md).
 */
export const DEFAULT_SCROLLBACK_BYTES = 4 * 1024 * 1024;

/** What the coordinator's SequenceScanner found in one output batch. */
export interface ScannedBatch {
  events: ScannedEvent[];
  atGround: boolean;
}
