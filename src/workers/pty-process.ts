/**
 * One child process on a PTY, owned by the PTY host thread (pty-host-worker.ts):
 * its output pump. The child's life (spawn, kill, exit drain) is PtyLifecycle's
 * (pty-lifecycle.ts); this class moves what it reads on to the pane's worker.
 *
 * Why there and not in the pane worker: reading the PTY and parsing the bytes on
 * the same thread serialises them, well below the parser's own rate
 * (docs/perf-notes.md). Reading in the host and parsing in the worker pipelines
 * the two across cores, and keeps node-pty (documented as not thread safe) on
 * one thread. Output is forwarded in batches; flow control pauses the PTY while
 * the worker is more than FLOW_HIGH_WATERMARK_BYTES behind.
 */
import {
  FLOW_HIGH_WATERMARK_BYTES,
  FLOW_LOW_WATERMARK_BYTES,
} from '../shared/pane-protocol.js';
import type { PtyExit, PtySpawnOptions } from '../shared/pty-host-protocol.js';
import type { DirectInputChannel } from '../shared/input-lease.js';
import { SharedAcks } from '../shared/shared-acks.js';
import { ChunkQueue } from '../shared/chunk-queue.js';
import { asBuffer, BacklogSkim } from './flood/backlog-skim.js';
import { FloodHold, HOLD_TARGET_BYTES } from './flood/flood-hold.js';
import type { OutputSink } from './output-sink.js';
import { PtyLifecycle } from './pty-lifecycle.js';
import { INTERACTIVE_BYTES, TURN_QUANTUM_BYTES, type ParseClient, type ParseScheduler } from './flood/parse-scheduler.js';

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

/** Where this process stands with the parse scheduler (parse-scheduler.ts). */
type ParseTurn =
  /** Holding no turn: small output goes at once, a flood asks for a turn. */
  | { kind: 'between-turns' }
  /** Holding one of the scheduler's turns; `bytes` sent during it. */
  | { kind: 'in-turn'; bytes: number }
  /** Out of the scheduler for good (exited and drained, or destroyed): nothing puts it back. */
  | { kind: 'retired' };

export class PtyProcess implements ParseClient {
  private readonly life: PtyLifecycle;
  /** Fires once the process has exited and every byte it wrote was delivered. */
  readonly onExit: PtyLifecycle['onExit'];

  private readonly pending = new ChunkQueue((bytes, byte) => asBuffer(bytes).lastIndexOf(byte));
  private readonly skim = new BacklogSkim();
  private readonly hold = new FloodHold(() => this.flush());
  /*
   * Where the process is in its life is explicit: `turn` below, and
   * PtyLifecycle's phase. The four booleans that follow (flushScheduled,
   * focused, ackWanted, consumerGone) are not: each is about something else,
   * so every combination is valid, and none is a state to leave or enter.
   * A scheduled flush is safe in any state (it hands on what the window
   * allows, or nothing); focus comes from the TUI at any time, a dead
   * consumer included, and only makes batches urgent; ackWanted caches what
   * the shared acks were last told; a gone consumer settles its own acks on
   * each delivery, so acks wanted and flushes go on working after it.
   * test/workers/pty-process-flags.test.ts drives each of them both ways.
   */
  private turn: ParseTurn = { kind: 'between-turns' };
  private flushScheduled = false;
  /** The TUI shows this pane: its output never yields to the user's typing (see ParseScheduler.yielding). */
  focused = false;
  private awaitedCount = 0;
  /** Bytes handed to the consumer, counted modulo 2^32 like its acks (shared-acks.ts). */
  private delivered = 0;
  private readonly acks: SharedAcks;
  /** What we last told the worker: post a message with each ack (see updateAckInterest). */
  private ackWanted = false;
  /** The consumer is gone: whatever is delivered counts as parsed at once. */
  private consumerGone = false;

  private constructor(
    private readonly options: PtySpawnOptions,
    private readonly sink: OutputSink,
    private readonly scheduler: ParseScheduler,
  ) {
    this.acks = new SharedAcks(options.acks);
    this.life = new PtyLifecycle(options, {
      onData: (data) => this.onData(data),
      onExitReported: () => {
        this.flush();
        this.maybeFinish();
        this.updateAckInterest();
      },
    });
    this.onExit = this.life.onExit;
  }

  /** The master fd and its lease, for writing input from another thread; null once the pane is ending. */
  directInput(): DirectInputChannel | null {
    return this.life.directInput();
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
    return this.life.pid;
  }

  get exited(): PtyExit | null {
    return this.life.exit;
  }

  write(data: string | Uint8Array): void {
    this.life.write(data);
  }

  resize(cols: number, rows: number): void {
    this.life.resize(cols, rows);
  }

  /** Callers waiting on this pane's screen (wait_for_pattern): its output is what they wait for. */
  get awaited(): number {
    return this.awaitedCount;
  }

  set awaited(count: number) {
    this.awaitedCount = count;
    if (this.turn.kind !== 'retired') this.scheduler.setAwaited(this, count > 0);
  }

  /** The consumer parsed more (the count is in shared memory): act on whatever was waiting for that. */
  onAcked(): void {
    this.maybeResume();
    if (this.turn.kind === 'in-turn' && this.inFlight() <= 0 && (this.pending.bytes === 0 || (this.turn.bytes >= TURN_QUANTUM_BYTES && this.scheduler.othersWaiting))) {
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
    const wanted = this.life.paused || this.turn.kind === 'in-turn' || this.pending.bytes > 0 || this.life.exitDraining;
    // Waiting on a parse the worker has not been told of would wait out the sink's deferral.
    if (wanted) this.sink.announceDeferred();
    if (wanted === this.ackWanted) return;
    this.ackWanted = wanted;
    this.acks.setWanted(wanted);
    // Acks the worker counted before it could see the request came with no message: act on them now.
    if (wanted) this.onAcked();
  }

  /** Signal the whole pane tree; SIGKILL whatever is left after `graceMs`. */
  async kill(signal: NodeJS.Signals = 'SIGTERM', graceMs = 2000): Promise<void> {
    await this.life.kill(signal, graceMs);
  }

  private onData(data: Buffer): void {
    this.hold.read();
    this.pending.push(data);
    // Never pause while draining after exit (PtyLifecycle.mayPause).
    if (this.life.mayPause && (this.unacked() > this.highWatermark() || this.holdingForInput())) this.life.pause();
    // Bytes left unannounced count against the interactive size: a flood's first reads must not pass as echoes.
    if (this.announcedInFlight() <= 0 && this.inFlight() + this.pending.bytes <= INTERACTIVE_BYTES) {
      // A keystroke's echo or a prompt with the worker idle: go now. Waiting for
      // the coalescing macrotask would queue it behind every flooding PTY's reads.
      // Someone waiting on this pane is waiting for exactly this: floods step aside.
      if (this.awaited > 0) this.scheduler.activity.markInput();
      this.flush(); // ends with updateAckInterest: not again below, once per read is enough
      return;
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

  /**
   * Bytes the worker was told of and has not parsed. Bytes are left
   * unannounced only once the worker has parsed all it was told of
   * (urgent()), and the next announcement counts them as told, so they always
   * lie after the announced ones: past those, this is 0, however many of them
   * the worker has drained by itself.
   */
  private announcedInFlight(): number {
    return Math.max(0, this.inFlight() - this.sink.deferredBytes());
  }

  /**
   * Whether a batch must reach the worker at once rather than wait to be
   * drained: someone looks at or waits on the pane, a turn or flow control
   * waits on its parse, more output is queued behind it, or the worker has
   * not caught up with what it was told (deferred bytes always come after all
   * of that, so the worker takes every frame in order).
   */
  private urgent(): boolean {
    return (
      this.focused || this.awaited > 0 || this.turn.kind !== 'between-turns' || this.life.paused || this.life.exitDraining ||
      this.pending.bytes > 0 || this.announcedInFlight() > 0
    );
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
    this.deliverPending();
    this.updateAckInterest();
  }

  /** flush() without the ack-interest update, which flush() makes once after it, whichever way this returns. */
  private deliverPending(): void {
    // Someone waiting on this pane's screen (wait_for_pattern) sees each batch as it comes.
    if (this.hold.holds(this.pending.bytes, this.skimAllowed() && this.awaited === 0)) return;
    this.skimBacklog();
    while (this.pending.bytes > 0 && this.inFlight() < IN_FLIGHT_LIMIT_BYTES) {
      if (this.turn.kind !== 'in-turn') {
        const interactive = this.pending.bytes <= INTERACTIVE_BYTES && this.inFlight() <= INTERACTIVE_BYTES;
        if (!interactive) {
          if (this.turn.kind === 'retired' || !this.scheduler.acquire(this)) return; // queued: onTurn() resumes
          this.beginTurn();
        }
      } else if (this.yieldsToInput && this.scheduler.yielding) {
        // The user just typed into another pane: finish what is in flight, then step aside.
        if (this.inFlight() > 0) return;
        this.endTurn();
        continue;
      } else if (this.turn.bytes >= TURN_QUANTUM_BYTES && this.scheduler.othersWaiting) {
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
      this.hand(batch, this.countTurnBytes(batch.length));
    }
  }

  /** Counts bytes sent in a parse turn; true when the turn had already carried a flood's worth (FLOOD_TURN_BYTES). */
  private countTurnBytes(bytes: number): boolean {
    if (this.turn.kind !== 'in-turn') return false;
    const flooding = this.turn.bytes >= FLOOD_TURN_BYTES;
    this.turn.bytes += bytes;
    return flooding;
  }

  private hand(batch: Uint8Array, flooding: boolean): void {
    const urgent = this.urgent();
    this.countDelivered(batch.length);
    this.sink.deliver(batch, flooding, urgent);
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
    const { cols, rows } = this.life;
    const geometry = { cols, rows, scrollbackBytes: this.options.scrollbackBytes };
    const plan = this.skim.plan(this.pending, geometry, () => this.sink.atPlainBoundary(rows));
    if (!plan) return;
    this.countTurnBytes(plan.cut);
    // The plan merged the backlog into one buffer: the front is a view of it, not a copy (the sink copies what it sends).
    const front = this.pending.takeView(plan.cut);
    this.countDelivered(front.length);
    this.sink.skim(front, plan.digest);
    this.settleIfConsumerGone();
    this.hold.skimmed(this.pending.bytes);
  }

  /** What a skim, and so a hold between skims (flood-hold.ts), needs: see skimBacklog. */
  private skimAllowed(): boolean {
    return !this.consumerGone && this.turn.kind === 'in-turn' && !this.scheduler.othersWaiting && !(this.yieldsToInput && this.scheduler.inputRecent);
  }

  get yieldsToInput(): boolean {
    return !this.focused && this.awaited === 0;
  }

  /** The parse scheduler granted a turn this process had queued for. */
  onTurn(): void {
    this.beginTurn();
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
    return this.turn.kind === 'in-turn' ? FLOW_HIGH_WATERMARK_BYTES : WAITING_HIGH_WATERMARK_BYTES;
  }

  /**
   * A flood waiting out the user's keystroke (ParseScheduler.yielding) stops
   * reading too: its bytes would only be held here, and reading them (and
   * letting its program write more) takes the CPU the echo needs. It is
   * queued for a turn (flush() asked), and onTurn() resumes it.
   */
  private holdingForInput(): boolean {
    return this.turn.kind !== 'in-turn' && this.yieldsToInput && this.pending.bytes > INTERACTIVE_BYTES && this.scheduler.yielding;
  }

  private maybeResume(): void {
    const low = this.hold.engaged ? HOLD_TARGET_BYTES : this.turn.kind === 'in-turn' ? FLOW_LOW_WATERMARK_BYTES : WAITING_HIGH_WATERMARK_BYTES / 2;
    if (this.life.paused && this.unacked() < low && !this.holdingForInput()) this.life.resume();
  }

  private beginTurn(): void {
    this.turn = { kind: 'in-turn', bytes: 0 };
  }

  private endTurn(): void {
    this.turn = { kind: 'between-turns' };
    this.scheduler.release(this);
  }

  /** Leaves the scheduler for good; remove() also ends a turn held and hands it on. */
  private retire(): void {
    this.turn = { kind: 'retired' };
    this.scheduler.remove(this);
  }

  private maybeFinish(): void {
    if (!this.life.exitDraining || this.unacked() > 0) return;
    if (this.turn.kind === 'in-turn') this.endTurn();
    this.retire();
    this.hold.dispose();
    this.life.finish();
  }

  /** Closes the master without waiting: the kernel hangs up the child's session. */
  destroy(): void {
    this.hold.dispose();
    this.retire();
    this.life.hangUp();
  }
}
