/**
 * One child process on a PTY, owned by the PTY host thread (pty-host-worker.ts).
 *
 * Why there and not in the pane worker: reading the PTY and parsing the bytes on
 * the same thread serialises them, well below the parser's own rate
 * (docs/perf-notes.md). Reading in the host and parsing in the worker pipelines
 * the two across cores, and keeps node-pty (documented as not thread safe) on
 * one thread. Output is forwarded in batches; flow control pauses the PTY while
 * the worker is more than FLOW_HIGH_WATERMARK_BYTES behind.
 */
import * as pty from 'node-pty';
import {
  FLOW_HIGH_WATERMARK_BYTES,
  FLOW_LOW_WATERMARK_BYTES,
} from '../shared/pane-protocol.js';
import type { PtyExit, PtySpawnOptions } from '../shared/pty-host-protocol.js';
import { Emitter } from '../shared/events.js';
import type { DirectInputChannel } from '../shared/input-lease.js';
import { SharedAcks } from '../shared/shared-acks.js';
import { ChunkQueue } from '../shared/chunk-queue.js';
import { describePtyExit } from '../shared/pty-exit.js';
import { killPaneTree } from '../node/process-reaper.js';
import { BacklogSkim } from './flood/backlog-skim.js';
import { FloodHold, HOLD_TARGET_BYTES } from './flood/flood-hold.js';
import type { OutputSink } from './output-sink.js';
import { PtySlave } from './pty-slave.js';
import { INTERACTIVE_BYTES, TURN_QUANTUM_BYTES, type ParseClient, type ParseScheduler } from './flood/parse-scheduler.js';
import { logIgnored } from '../node/patterm-log.js';

/**
 * Output batching. At most IN_FLIGHT_LIMIT_BYTES are with the consumer at once
 * (two full batches: it always has the next one queued while it parses), and a
 * batch is at most MAX_BATCH_BYTES, a short parse, so an RPC such as a grid
 * read never waits behind a long one.
 */
const MAX_BATCH_BYTES = 64 * 1024;
const IN_FLIGHT_LIMIT_BYTES = 2 * MAX_BATCH_BYTES;
/**
 * A turn that has carried this much is a flood, not a redraw: the largest
 * full-screen repaint (200x60, every cell styled) is well under it, while a
 * pane rationed by the scheduler sends a whole quantum per turn. Batches past
 * it are flagged so the worker can lower its priority (flood-priority.ts).
 */
const FLOOD_TURN_BYTES = TURN_QUANTUM_BYTES / 2;
/** Output held for a pane that is waiting for a parse turn: one quantum, ready to go when the turn comes. */
const WAITING_HIGH_WATERMARK_BYTES = TURN_QUANTUM_BYTES;

export class PtyProcess implements ParseClient {
  private readonly pty: pty.IPty;
  private readonly onExitEmitter = new Emitter<PtyExit>();
  /** Fires once the process has exited and every byte it wrote was delivered. */
  readonly onExit = this.onExitEmitter.event;

  private readonly pending = new ChunkQueue();
  private readonly skim = new BacklogSkim();
  private readonly hold = new FloodHold(() => this.flush());
  private cols: number;
  private rows: number;
  private flushScheduled = false;
  /** Holds one of the parse scheduler's turns (see parse-scheduler.ts); bytes sent during it. */
  private hasTurn = false;
  private turnBytes = 0;
  /** The TUI shows this pane: its output never yields to the user's typing (see ParseScheduler.yielding). */
  focused = false;
  private awaitedCount = 0;
  /** Out of the parse scheduler for good (exited and drained, or destroyed): a late wait must not put it back. */
  private unscheduled = false;
  /** Bytes handed to the consumer, counted modulo 2^32 like its acks (shared-acks.ts). */
  private delivered = 0;
  private readonly acks: SharedAcks;
  /** What we last told the worker: post a message with each ack (see updateAckInterest). */
  private ackWanted = false;
  /** The consumer is gone: whatever is delivered counts as parsed at once. */
  private consumerGone = false;
  private paused = false;
  private rawExit: { exitCode: number; signal: number } | null = null;
  private killRequested = false;
  private finalExit: PtyExit | null = null;
  /** Our own hold on the slave: a fast exit's last output, and keystrokes from another thread (pty-slave.ts). */
  private readonly slave: PtySlave;

  private constructor(
    private readonly options: PtySpawnOptions,
    private readonly sink: OutputSink,
    private readonly scheduler: ParseScheduler,
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
    this.acks = new SharedAcks(options.acks);
    this.pty.onData((data) => this.onData(data as unknown as Buffer));
    this.pty.onExit((event) => this.onRawExit(event));
    this.slave = new PtySlave(this.pty, () => this.startDrain());
  }

  /** The master fd and its lease, for writing input from another thread; null once the pane is ending. */
  directInput(): DirectInputChannel | null {
    return this.rawExit ? null : this.slave.directInput();
  }

  private startDrain(): void {
    if (this.slave.startDrain() && this.paused) {
      this.paused = false;
      this.pty.resume();
    }
  }

  /**
   * Spawns the process. `sink` receives coalesced output batches; the
   * consumer counts what it has parsed in `options.acks` and, when asked to
   * there, also posts a message, which the caller turns into `onAcked()`.
   */
  static spawn(options: PtySpawnOptions, sink: OutputSink, scheduler: ParseScheduler): PtyProcess {
    return new PtyProcess(options, sink, scheduler);
  }

  get pid(): number {
    return this.pty.pid;
  }

  get exited(): PtyExit | null {
    return this.finalExit;
  }

  write(data: string | Uint8Array): void {
    if (this.rawExit || data.length === 0) return;
    this.pty.write(typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as string);
  }

  resize(cols: number, rows: number): void {
    if (this.rawExit) return;
    try {
      this.pty.resize(cols, rows);
      this.cols = cols;
      this.rows = rows;
    } catch (error) {
      // The process may exit between the check and the ioctl.
      logIgnored(`resizing pid ${this.pid} to ${cols}x${rows}`, error);
    }
  }

  /** Callers waiting on this pane's screen (wait_for_pattern): its output is what they wait for. */
  get awaited(): number {
    return this.awaitedCount;
  }

  set awaited(count: number) {
    this.awaitedCount = count;
    if (!this.unscheduled) this.scheduler.setAwaited(this, count > 0);
  }

  /** The consumer parsed more (the count is in shared memory): act on whatever was waiting for that. */
  onAcked(): void {
    this.maybeResume();
    if (this.hasTurn && this.inFlight() <= 0 && (this.pending.bytes === 0 || (this.turnBytes >= TURN_QUANTUM_BYTES && this.scheduler.othersWaiting))) {
      this.endTurn(); // drained, or quantum used while others wait: hand the core on
    }
    // Room in the window again: what piled up meanwhile goes now, as one batch.
    if (this.pending.bytes > 0) this.flush();
    this.maybeFinish();
    this.updateAckInterest();
  }

  /** Nobody will parse again: release what is in flight, and everything from now on. */
  dropConsumer(): void {
    this.consumerGone = true;
    this.acks.settle(this.delivered);
    this.onAcked();
  }

  /**
   * Asks for ack messages only while an ack would change something here: a
   * paused PTY, a parse turn, output held back, or an exit waiting on the last
   * byte. Otherwise (an idle agent's spinner) the count is read when needed.
   */
  private updateAckInterest(): void {
    const wanted = this.paused || this.hasTurn || this.pending.bytes > 0 || (this.rawExit !== null && this.finalExit === null);
    if (wanted === this.ackWanted) return;
    this.ackWanted = wanted;
    this.acks.setWanted(wanted);
    // Acks the worker counted before it could see the request came with no message: act on them now.
    if (wanted) this.onAcked();
  }

  /** Signal the whole pane tree; SIGKILL whatever is left after `graceMs`. */
  async kill(signal: NodeJS.Signals = 'SIGTERM', graceMs = 2000): Promise<void> {
    // Once the root is reaped its pid may be another process's: only the pane's marker identifies what it left running.
    if (this.finalExit || this.slave.reaped) return killPaneTree(null, this.options.marker, signal, graceMs);
    this.killRequested = true;
    await killPaneTree(this.pty.pid, this.options.marker, signal, graceMs);
  }

  private onData(raw: Buffer): void {
    const data = this.slave.filter(raw);
    if (data.length === 0) return;
    this.hold.read();
    this.pending.push(data);
    // Never pause while draining after exit: the drain marker must get through
    // before node-pty gives up on the socket (see startDrain).
    if (!this.paused && !this.slave.draining && (this.unacked() > this.highWatermark() || this.holdingForInput())) {
      this.paused = true;
      this.pty.pause();
    }
    if (this.inFlight() <= 0 && this.pending.bytes <= INTERACTIVE_BYTES) {
      // A keystroke's echo or a prompt with the worker idle: go now. Waiting for
      // the coalescing macrotask would queue it behind every flooding PTY's reads.
      // Someone waiting on this pane is waiting for exactly this: floods step aside.
      if (this.awaited > 0) this.scheduler.activity.markInput();
      this.flush();
    } else if (!this.flushScheduled && this.inFlight() < IN_FLIGHT_LIMIT_BYTES) {
      this.flushScheduled = true;
      // One macrotask of coalescing: several reads ready at once go as one message.
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
    this.updateAckInterest();
  }

  /** Bytes handed to the consumer and not yet parsed. */
  private inFlight(): number {
    return this.acks.inFlight(this.delivered);
  }

  /** Bytes read from the PTY and not yet parsed: what flow control bounds. */
  private unacked(): number {
    return this.pending.bytes + this.inFlight();
  }

  /**
   * Delivers pending output while the window allows. A consumer that keeps up
   * gets every read at once (an echo is not delayed); one that falls behind
   * leaves reads to pile up here, and gets them as fewer, larger batches when it
   * acks. A PTY read is ~4 KiB, and per-message costs in the worker made
   * floods of such batches markedly slower than the parse itself.
   */
  private flush(): void {
    // Someone waiting on this pane's screen (wait_for_pattern) sees each batch as it comes.
    if (this.hold.holds(this.pending.bytes, this.skimAllowed() && this.awaited === 0)) return;
    this.skimBacklog();
    while (this.pending.bytes > 0 && this.inFlight() < IN_FLIGHT_LIMIT_BYTES) {
      if (!this.hasTurn) {
        const interactive = this.pending.bytes <= INTERACTIVE_BYTES && this.inFlight() <= INTERACTIVE_BYTES;
        if (!interactive) {
          if (!this.scheduler.acquire(this)) return; // queued: onTurn() resumes
          this.hasTurn = true;
          this.turnBytes = 0;
        }
      } else if (this.yieldsToInput && this.scheduler.yielding) {
        // The user just typed into another pane: finish what is in flight, then step aside.
        if (this.inFlight() > 0) return;
        this.endTurn();
        continue;
      } else if (this.turnBytes >= TURN_QUANTUM_BYTES && this.scheduler.othersWaiting) {
        // Quantum used: the turn ends once what is in flight is parsed (see ack), then we queue again.
        if (this.inFlight() > 0) return;
        this.endTurn();
        continue;
      }
      if (this.hold.waitsForBacklog) break;
      const batch = this.sink.batchBuffer(this.pending.linesSize(MAX_BATCH_BYTES));
      if (!batch) break;
      this.pending.takeInto(batch);
      this.hold.handedOn(batch.length);
      const flooding = this.hasTurn && this.turnBytes >= FLOOD_TURN_BYTES;
      if (this.hasTurn) this.turnBytes += batch.length;
      this.hand(batch, flooding);
    }
    this.updateAckInterest();
  }

  private hand(batch: Uint8Array, flooding: boolean): void {
    this.countDelivered(batch.length);
    this.sink.deliver(batch, flooding);
    this.settleIfConsumerGone();
  }

  private countDelivered(bytes: number): void {
    this.delivered = (this.delivered + bytes) | 0;
  }

  private settleIfConsumerGone(): void {
    if (this.consumerGone) {
      this.acks.settle(this.delivered);
      this.onAcked();
    }
  }

  /**
   * A backlog too deep for its front ever to be seen is skimmed (skim-plan.ts):
   * it goes on at once, outside the window, since the worker only copies it
   * to its ring and parses a few SGR sequences. Only in a parse turn that no
   * other flood is queued for, and not while input is recent for a pane that
   * yields to it: a skim is room for the flood to read on, at full priority
   * on the host thread and in its program, where a parse runs niced in the
   * worker, and the echo of someone's typing waits for that CPU
   * (figures: docs/perf-notes.md).
   */
  private skimBacklog(): void {
    if (!this.skimAllowed() || this.hold.releasingKept) return;
    const geometry = { cols: this.cols, rows: this.rows, scrollbackBytes: this.options.scrollbackBytes };
    const plan = this.skim.plan(this.pending, geometry, () => this.sink.atPlainBoundary(this.rows));
    if (!plan) return;
    this.turnBytes += plan.cut;
    // The plan merged the backlog into one buffer: the front is a view of it, not a copy (the sink copies what it sends).
    const front = this.pending.takeView(plan.cut);
    this.countDelivered(front.length);
    this.sink.skim(front, plan.digest);
    this.settleIfConsumerGone();
    this.hold.skimmed(this.pending.bytes);
  }

  /** What a skim, and so a hold between skims (flood-hold.ts), needs: see skimBacklog. */
  private skimAllowed(): boolean {
    return !this.consumerGone && this.hasTurn && !this.scheduler.othersWaiting && !(this.yieldsToInput && this.scheduler.inputRecent);
  }

  get yieldsToInput(): boolean {
    return !this.focused && this.awaited === 0;
  }

  /** The parse scheduler granted a turn this process had queued for. */
  onTurn(): void {
    this.hasTurn = true;
    this.turnBytes = 0;
    this.maybeResume();
    this.flush();
  }

  /**
   * While a pane waits for a parse turn its output stays in the kernel, not here:
   * sixteen flooding panes each holding FLOW_HIGH_WATERMARK_BYTES of small
   * buffers in the PTY host meant old-generation garbage and GC pauses that
   * every pane felt.
   */
  private highWatermark(): number {
    if (this.hold.engaged) return HOLD_TARGET_BYTES + FLOW_HIGH_WATERMARK_BYTES;
    return this.hasTurn ? FLOW_HIGH_WATERMARK_BYTES : WAITING_HIGH_WATERMARK_BYTES;
  }

  /**
   * A flood waiting out the user's keystroke (ParseScheduler.yielding) stops
   * reading too: its bytes would only be held here, and reading them (and
   * letting its program write more) takes the CPU the echo needs. It is
   * queued for a turn (flush() asked), and onTurn() resumes it.
   */
  private holdingForInput(): boolean {
    return !this.hasTurn && this.yieldsToInput && this.pending.bytes > INTERACTIVE_BYTES && this.scheduler.yielding;
  }

  private maybeResume(): void {
    const low = this.hold.engaged ? HOLD_TARGET_BYTES : this.hasTurn ? FLOW_LOW_WATERMARK_BYTES : WAITING_HIGH_WATERMARK_BYTES / 2;
    if (this.paused && this.unacked() < low && !this.holdingForInput()) {
      this.paused = false;
      this.pty.resume();
    }
  }

  private unschedule(): void {
    this.unscheduled = true;
    this.scheduler.remove(this);
  }

  private endTurn(): void {
    this.hasTurn = false;
    this.scheduler.release(this);
  }

  private onRawExit(event: { exitCode: number; signal?: number }): void {
    this.slave.revokeInput();
    this.rawExit = { exitCode: event.exitCode, signal: event.signal ?? 0 };
    // node-pty can report exit while output is still queued in the socket; let it drain.
    setImmediate(() => {
      this.flush();
      this.maybeFinish();
      this.updateAckInterest();
    });
  }

  private maybeFinish(): void {
    if (!this.rawExit || this.finalExit || this.unacked() > 0) return;
    if (this.hasTurn) this.endTurn();
    this.unschedule();
    this.hold.dispose();
    this.finalExit = describePtyExit(this.rawExit, this.killRequested);
    this.onExitEmitter.fire(this.finalExit);
  }

  /** Closes the master without waiting: the kernel hangs up the child's session. */
  destroy(): void {
    this.hold.dispose();
    this.hasTurn = false;
    this.unschedule();
    this.slave.release();
    if (this.slave.reaped || this.rawExit) return; // its pid may already belong to an unrelated process
    try {
      this.pty.kill('SIGHUP');
    } catch (error) {
      logIgnored(`hanging up pid ${this.pid}`, error);
    }
  }
}
