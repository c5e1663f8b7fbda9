/**
 * Everything a pane knows about its output: the raw byte ring, the emulator,
 * the idle clock, the control-sequence scanner and the pattern waiters.
 * Runs inside the pane's own worker thread; one instance per worker.
 */
import { ByteRing } from '../shared/byte-ring.js';
import { SequenceScanner, type ScannedEvent } from '../shared/sequence-scanner.js';
import { signalForEvent } from '../shared/event-signals.js';
import { completeUtf8Length } from '../shared/utf8-tail.js';
import { replyToQuery } from '../shared/query-replies.js';
import type { CellFrame, GridSnapshot, HistorySlice, PaneSignal, StreamChunk, WaitRequest, WaitResult } from '../shared/pane-types.js';
import type { FromWorkerMessage, PaneRemains, PaneWorkerInit, ScannedBatch } from '../shared/pane-protocol.js';
import { packRows } from '../shared/compact-rows.js';
import { styledRows } from '../shared/styled-line.js';
import type { GhosttyEmulator } from './ghostty-emulator.js';
import { EmulatorKeeper } from './emulator-keeper.js';
import { PatternWaiters } from '../node/pattern-waiters.js';
import { patternMatcher } from '../node/pattern-matcher.js';
import { MirrorPublisher } from './mirror-publisher.js';
import { FocusReporter } from './focus-reporter.js';
import { GridHistory } from '../shared/grid-history.js';
import { SharedAcks } from '../shared/shared-acks.js';
import { RowNumbering } from '../shared/row-numbering.js';
import { isPromptStart, PromptRows } from './prompt-rows.js';
import type { SliceGate } from './flood/input-park.js';

/** Screen-change notices are coalesced to one per this interval (well under a 60 Hz frame)... */
const DIRTY_NOTIFY_INTERVAL_MS = 4;
/**
 * ...while the TUI shows the pane or a wait_for_pattern is pending. Otherwise
 * nobody needs more than a sidebar's worth, and each tick of a flooding pane
 * that the coordinator listens to hashes the screen and wakes the
 * coordinator thread: at the watched rate, a visible share of a flood's parse
 * and thousands of wake-ups a second across many flooding panes. The first
 * change after a quiet spell still ticks at once.
 */
const UNWATCHED_NOTIFY_INTERVAL_MS = 32;

export class PaneService {
  private readonly ring: ByteRing;
  private readonly scanner = new SequenceScanner();
  private readonly keeper: EmulatorKeeper;
  private readonly waiters: PatternWaiters;
  private lastOutputAt = performance.now();
  private idleThresholdMs: number;
  private title = '';
  /** The output parsed so far ends between sequences and characters: the emulator may be written to (a compaction's swap, a resize's cursor carrying). */
  private parsedToRest = true;

  private screenVersion = 0;
  private lastHash = -1;
  private hashStale = true;
  /** Output arrived since ghostty's render state was last synced; checked lazily, not per batch. */
  private renderStale = false;
  /** The cursor and modes as of the last version check (GhosttyEmulator.frameStateKey). */
  private lastFrameStateKey = -1;
  /** The version the last dirty notice (and waiter check) was for. */
  private notifiedVersion = -1;
  private linesCache: { version: number; lines: string[] } | null = null;
  private readonly history = new GridHistory();
  /** Numbers the history's rows for readers (the TUI's history reader) while the scrollback drops its oldest. */
  private readonly rowNumbering = new RowNumbering();
  /** See PaneWorkerApi.promptRows. */
  private readonly prompts = new PromptRows();
  private readonly mirror: MirrorPublisher | null; // the coordinator's shared-memory copy of grid(), if any
  private readonly acks: SharedAcks;

  private dirtyTimer: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | null = null;
  /** Set while the TUI shows this pane: gets a frame after every screen change. */
  private frameSink: ((frame: CellFrame) => void) | null = null;
  private lastDirtyNotify = 0;
  /** The coordinator listens for this pane's changes (Pane.onDirty); otherwise a notice would only wake it. */
  private screenNotices = false;
  /** The pending tick was scheduled at the unwatched pace; a new watcher brings it forward. */
  private slowTickPending = false;
  /** How a batch is cut for parsing (input-park.ts); null: in one piece. */
  private readonly slices: SliceGate | null;
  /** Set while burst() runs: its screen tick comes at its end. */
  private inBurst = false;
  private readonly focus = new FocusReporter((bytes) => this.post({ t: 'reply', data: bytes }));

  /**
   * `outputWaiting`: whether output waits in the pane's output lane, not yet taken (see MirrorPublisher).
   * `compactBytes`: tests only, the keeper's compaction limit (see EmulatorKeeperOptions).
   */
  constructor(
    private readonly init: PaneWorkerInit,
    module: WebAssembly.Module,
    private readonly post: (message: FromWorkerMessage) => void,
    { outputWaiting, compactBytes, slices }: { outputWaiting?: () => boolean; compactBytes?: number; slices?: SliceGate } = {},
  ) {
    this.slices = slices ?? null;
    this.ring = new ByteRing(init.ringCapacity);
    this.idleThresholdMs = init.idleThresholdMs;
    this.mirror = init.gridMirror ? new MirrorPublisher(init.gridMirror, init.idleThresholdMs, outputWaiting) : null;
    this.acks = new SharedAcks(init.acks);
    this.keeper = new EmulatorKeeper({
      module,
      cols: init.cols,
      rows: init.rows,
      scrollbackBytes: init.scrollbackBytes,
      ring: this.ring,
      compactBytes,
      onRebuilt: (reason) => {
        this.hashStale = true;
        this.prompts.clear(); // the rows were replayed from the ring: numbered anew
        this.mirror?.onChange();
        this.signal({ type: 'emulator-rebuilt', reason });
        this.markDirty();
      },
    });
    this.waiters = new PatternWaiters(
      {
        version: () => this.version(),
        lines: () => this.lines(),
      },
      patternMatcher(),
    );
  }

  // ---- output path -------------------------------------------------------

  /**
   * `scanned`: the PTY host's scan of these bytes (see ToWorkerMessage);
   * without it the worker scans. `parse`: a skim (skim-plan.ts): the ring
   * keeps `bytes`, the emulator parses this in their place. `copied`: runs
   * once nothing here refers to `bytes` any more, before they are acked (a
   * view of the output lane, which the PTY host may then reuse, or a buffer
   * the host lent, which it may transfer back and so detach).
   */
  onOutput(bytes: Uint8Array, scanned?: ScannedBatch, parse?: Uint8Array, skipped = 0, copied?: () => void): void {
    const delivered = bytes.length + skipped;
    if (delivered === 0) {
      copied?.();
      return;
    }
    this.ring.skip(skipped);
    const chunkStart = this.ring.headOffset;
    this.ring.append(bytes);
    this.lastOutputAt = performance.now();
    this.mirror?.onOutput();
    const events = scanned?.events ?? this.scanner.scan(bytes);
    const atGround = scanned?.atGround ?? this.scanner.atGround;
    // A rebuild (trap) replays the ring, which already holds this whole batch: feeding the rest would repeat it.
    const rebuilds = this.keeper.rebuilds;
    let fed = 0;
    // A skimmed run holds no queries (no escape but SGR), so nothing need be parsed before an event.
    for (const event of events) {
      const prompt = isPromptStart(event);
      if ((event.type === 'query' || prompt) && !parse) {
        if (this.keeper.rebuilds === rebuilds) this.feed(bytes.subarray(fed, event.end), chunkStart);
        fed = event.end;
      }
      if (prompt) this.keeper.safe((emulator) => this.prompts.note(emulator, this.rowNumbering));
      this.handleEvent(event);
    }
    const rest = parse ?? bytes.subarray(fed);
    if (this.keeper.rebuilds === rebuilds) this.feed(rest, chunkStart);
    this.parsedToRest = atGround && completeUtf8Length(rest) === rest.length;
    const compacted = this.parsedToRest ? this.keeper.compactIfBloated() : null;
    if (compacted) {
      this.renderStale = true;
      this.hashStale = true;
      // Rows carried as text alone are the same rows restyled, not new ones (see RowNumbering.rebase).
      if (compacted === 'plain') this.rebaseRows();
    }
    copied?.();
    if (this.acks.add(delivered)) this.post({ t: 'ack' });
    // Screen bookkeeping (render-state sync, hash, waiters, dirty notice) is not
    // done per batch: a flood delivers hundreds of batches per screen tick, and
    // syncing each one cost more than parsing it. Reads stay exact because
    // version() syncs on demand; the tick below catches up at most every
    // DIRTY_NOTIFY_INTERVAL_MS.
    this.renderStale = true;
    if (!this.inBurst) this.scheduleScreenTick({ inlineWhenDue: true });
  }

  /** Runs `feed`, which hands over several batches at once (frames drained from the output lane), with one screen tick after them all, not one after the first and a timer for the rest. */
  burst(feed: () => void): void {
    this.inBurst = true;
    try {
      feed();
    } finally {
      this.inBurst = false;
      if (this.renderStale) this.scheduleScreenTick({ inlineWhenDue: true });
    }
  }

  /** Parses `bytes`, in the slices `slices` asks for (input-park.ts), pausing between two. */
  private feed(bytes: Uint8Array, chunkStart: number): void {
    const sliceBytes = this.slices?.sliceBytes ?? Infinity;
    const rebuilds = this.keeper.rebuilds;
    for (let at = 0; at < bytes.length; at += sliceBytes) {
      if (at > 0) {
        // A trap's rebuild replayed the ring, which holds the whole batch.
        if (this.keeper.rebuilds !== rebuilds) return;
        this.slices!.pause();
      }
      for (const reply of this.keeper.write(bytes.subarray(at, at + sliceBytes), chunkStart)) this.post({ t: 'reply', data: reply });
    }
  }

  /** The emulator now: a trap or a compaction replaces it, so never hold on to it. */
  private get emulator(): GhosttyEmulator {
    return this.keeper.current;
  }

  /** Rows will be numbered anew by position (see RowNumbering.rebase): prompt rows noted so far name other rows. */
  private rebaseRows(): void {
    this.rowNumbering.rebase();
    this.prompts.clear();
  }

  /** See PaneWorkerApi.promptRows. */
  promptRows(): number[] {
    return this.prompts.list();
  }

  private handleEvent(event: ScannedEvent): void {
    if (event.type === 'query') {
      const reply = this.keeper.safe(() => replyToQuery(event.query, this.stateView(), this.init.version));
      if (reply) this.post({ t: 'reply', data: reply });
      return;
    }
    const signal = signalForEvent(event, this.ring.headOffset);
    if (!signal) return;
    if (signal.type === 'title') this.title = signal.title;
    this.signal(signal);
  }

  private stateView() {
    const cursor = this.emulator.cursor();
    return {
      rows: this.emulator.rows,
      cols: this.emulator.cols,
      cursorX: cursor.x,
      cursorY: cursor.y,
      modeState: (mode: number, dec: boolean) => this.emulator.getMode(mode, dec),
    };
  }

  private signal(signal: PaneSignal): void {
    this.post({ t: 'signal', signal });
  }

  // ---- screen state ------------------------------------------------------------

  private markDirty(): void {
    this.hashStale = true;
    this.scheduleScreenTick();
  }

  /** Someone is looking at this pane: the TUI shows it, or a caller waits on its screen. */
  get watched(): boolean {
    return this.frameSink !== null || this.waiters.count > 0;
  }

  /** Every output batch should reach this worker as it comes, not be left for a later drain (see OutputReceiver). */
  get wantsEveryBatch(): boolean {
    return this.watched || this.screenNotices;
  }

  /**
   * At most one screen tick per DIRTY_NOTIFY_INTERVAL_MS (unwatched: per
   * UNWATCHED_NOTIFY_INTERVAL_MS); the first change after a quiet spell ticks
   * at once, so an echo is not delayed.
   *
   * `inlineWhenDue` (a batch's end): an unwatched, unlistened pane's due tick,
   * which only checks focus reporting and arms the mirror, runs at once; its
   * own event-loop turn costs more than it (figures: docs/perf-notes.md).
   */
  private scheduleScreenTick(options: { inlineWhenDue?: boolean } = {}): void {
    if (this.dirtyTimer) return;
    const watched = this.watched;
    const interval = watched ? DIRTY_NOTIFY_INTERVAL_MS : UNWATCHED_NOTIFY_INTERVAL_MS;
    const wait = Math.max(0, this.lastDirtyNotify + interval - performance.now());
    this.slowTickPending = !watched && wait > DIRTY_NOTIFY_INTERVAL_MS;
    if (wait === 0 && options.inlineWhenDue && !watched && !this.screenNotices) {
      this.screenTick();
      return;
    }
    // setImmediate when due now: setTimeout(0) waits at least 1 ms, which an echo would feel.
    this.dirtyTimer = wait > 0 ? setTimeout(() => this.screenTick(), wait) : setImmediate(() => this.screenTick());
  }

  /**
   * When the screen really changed since the last tick: re-check the waiters,
   * push a frame, tell the coordinator. With none of them there, the version
   * is left to whoever asks next: hashing copies the whole screen out of
   * ghostty, a real share of what each redraw of an unwatched agent's
   * spinner costs.
   */
  private screenTick(): void {
    this.dirtyTimer = null;
    this.lastDirtyNotify = performance.now();
    this.focus.onReportingMode(this.keeper.safe((emulator) => emulator.getMode(1004, true)) ?? false);
    if (this.watched || this.screenNotices) {
      const version = this.version();
      if (version !== this.notifiedVersion) {
        this.notifiedVersion = version;
        this.waiters.onScreenChanged();
        if (this.screenNotices) this.post({ t: 'dirty', version });
        if (this.frameSink) this.frameSink(this.cells());
      }
    }
    this.mirror?.publishWhenSettled(() => this.grid()); // grid() publishes it
  }

  /**
   * Notices come from ticks, and turning them on ticks: the first notice's
   * version covers changes made while nobody listened, such as output whose
   * tick ran inline just before (scheduleScreenTick).
   */
  setScreenNotices(on: boolean): void {
    this.screenNotices = on;
    if (on) this.scheduleScreenTick();
  }

  /** Pushes the screen now and after every change until cleared (the TUI's focused pane). */
  setFrameSink(sink: ((frame: CellFrame) => void) | null): void {
    this.frameSink = sink;
    this.focus.setShown(sink !== null);
    this.bringTickForward();
    if (sink) sink(this.cells());
  }

  /** The screen version, bumped lazily: only a real change of cells or cursor counts. */
  version(): number {
    if (this.renderStale) {
      this.renderStale = false;
      // ghostty's own dirty tracking is the cheap first filter; the hash decides.
      // It does not flag a cursor that only moved along its row or was shown or
      // hidden (a shell's echo of Left, a TUI showing its cursor once drawn), nor
      // a mode set with nothing drawn, so those are compared on their own.
      const dirty = this.keeper.safe((emulator) => emulator.syncDirty());
      if (this.frameStateChanged() || dirty) this.hashStale = true;
    }
    if (this.hashStale) {
      this.hashStale = false;
      const hash = this.keeper.safe((emulator) => emulator.screenHash()) ?? -2;
      if (hash !== this.lastHash) {
        this.lastHash = hash;
        this.screenVersion++;
      }
    }
    return this.screenVersion;
  }

  private frameStateChanged(): boolean {
    const key = this.keeper.safe((emulator) => emulator.frameStateKey()) ?? -2;
    if (key === this.lastFrameStateKey) return false;
    this.lastFrameStateKey = key;
    return true;
  }

  lines(): string[] {
    const version = this.version();
    if (this.linesCache?.version !== version) {
      const lines = this.keeper.safe((emulator) => emulator.plainLines()) ?? [];
      this.linesCache = { version, lines };
    }
    return this.linesCache.lines;
  }

  // ---- RPC surface -------------------------------------------------------------

  resize(cols: number, rows: number): void {
    this.keeper.resize(cols, rows, { atRest: this.parsedToRest });
    // Reflowed rows match none seen before; they are not dropped (see RowNumbering.rebase).
    this.rebaseRows();
    this.renderStale = true; // after a runaway reflow the emulator is a fresh one, with no render state synced yet
    this.mirror?.onChange();
    this.markDirty();
  }

  grid(sinceVersion?: number, styled = false): GridSnapshot {
    const generation = this.mirror?.generation() ?? 0;
    const lines = this.lines();
    const version = this.screenVersion;
    this.history.remember(version, lines);
    const cursor = this.keeper.safe((emulator) => emulator.gridCursor()) ?? { x: 0, y: 0, visible: true, textIndex: 0 };
    const grid: GridSnapshot = {
      lines,
      rows: this.emulator.rows,
      cols: this.emulator.cols,
      cursor,
      activeScreen: this.emulator.isAlternateScreen() ? 'alternate' : 'primary',
      screenVersion: version,
      idleMs: this.idleMs(),
      idle: this.idleMs() >= this.idleThresholdMs,
      title: this.title,
      bracketedPaste: this.emulator.getMode(2004, true),
      mouseTracking: this.emulator.getMode(1000, true) || this.emulator.getMode(1002, true) || this.emulator.getMode(1003, true),
      emulatorRebuilds: this.keeper.rebuilds,
      synchronizedUpdate: this.emulator.getMode(2026, true),
    };
    this.mirror?.offer(grid, generation, this.ring.headOffset);
    if (sinceVersion !== undefined) grid.changedRows = this.history.changedRowsSince(sinceVersion, lines);
    if (styled) grid.styledLines = this.keeper.safe((emulator) => styledRows(emulator.cellFrame(version))) ?? lines;
    return grid;
  }

  cells(): CellFrame {
    const version = this.version();
    const frame = this.keeper.safe((emulator) => emulator.cellFrame(version));
    return frame ?? this.emulator.cellFrame(version);
  }

  /** See PaneWorkerApi.remains. */
  remains(historyCells: number): PaneRemains {
    const historyRows = Math.max(1, Math.ceil(historyCells / Math.max(1, this.emulator.cols)));
    const history = this.historySlice(-historyRows, historyRows);
    return {
      grid: this.grid(),
      cells: this.cells(),
      history: packRows(history.frame),
      historyFirst: history.first,
      ring: this.stream(0),
      idleThresholdMs: this.idleThresholdMs,
      promptRows: this.promptRows(),
    };
  }

  /** Rows numbered over the pane's life (row-numbering.ts), across the emulator's rebuilds and compactions. */
  historySlice(first: number, count: number): HistorySlice {
    const numbered = (emulator: GhosttyEmulator) => {
      // On the alternate screen the scrollback is hidden, not gone: the count waits for it to show again.
      const dropped = emulator.isAlternateScreen() ? this.rowNumbering.dropped : emulator.withScrollbackRows((rows) => this.rowNumbering.sync(rows));
      return emulator.history(first, count, dropped);
    };
    return this.keeper.safe(numbered) ?? numbered(this.emulator);
  }

  stream(fromOffset: number, limit?: number): StreamChunk {
    const read = this.ring.read(fromOffset, limit);
    return { ...read, headOffset: this.ring.headOffset };
  }

  waitFor(request: WaitRequest): Promise<WaitResult> {
    const result = this.waiters.add(request);
    this.bringTickForward();
    return result;
  }

  cancelWait(id: string): void {
    this.waiters.cancel(id);
  }

  /** Someone started watching: a tick scheduled at the unwatched pace comes at the watched one. */
  private bringTickForward(): void {
    if (!this.slowTickPending || !this.dirtyTimer) return;
    clearTimeout(this.dirtyTimer as ReturnType<typeof setTimeout>);
    this.dirtyTimer = null;
    this.scheduleScreenTick();
  }

  idleMs(): number {
    return Math.round(performance.now() - this.lastOutputAt);
  }

  idleState(): { idleMs: number; thresholdMs: number; idle: boolean } {
    const idleMs = this.idleMs();
    return { idleMs, thresholdMs: this.idleThresholdMs, idle: idleMs >= this.idleThresholdMs };
  }

  setIdleThreshold(ms: number): void {
    this.idleThresholdMs = ms;
    this.mirror?.setIdleThreshold(ms);
  }

}
