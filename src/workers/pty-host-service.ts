/**
 * Every pane's PTY, in the PTY host thread (see pty-host-protocol.ts). Output
 * goes from here straight to each pane's worker over its data port, already
 * scanned for titles, bells and queries; query replies (and acks, when the
 * PTY waits on one: shared-acks.ts) come back the same way. The coordinator
 * only hears about exits.
 */
import type { MessagePort } from 'node:worker_threads';
import type { FromWorkerMessage, ToWorkerMessage } from '../shared/pane-protocol.js';
import type { PtyHostApi, PtyHostEvent, PtySpawnOptions, PtySpawned } from '../shared/pty-host-protocol.js';
import { FRAME_ANNOUNCED, FRAME_AT_GROUND, OutputLaneWriter } from '../shared/output-lane.js';
import { SequenceScanner } from '../shared/sequence-scanner.js';
import type { ParseScheduler } from './flood/parse-scheduler.js';
import { LentBuffers } from './flood/lent-buffers.js';
import { PtyProcess } from './pty-process.js';
import { DeferredOutputSweep } from './deferred-output.js';
import { CommandTap } from './command-tap.js';
import type { ShellEvent } from '../shared/shell-mark-tracker.js';

class HostedPty {
  readonly pty: PtyProcess;
  private readonly scanner = new SequenceScanner();
  private consumerGone = false;
  private readonly lane: OutputLaneWriter | null;
  /** The lane's slot last handed out for a batch: delivering it posts its span, not its bytes. */
  private laneSlot: Uint8Array | null = null;
  /** What a skim sends goes in a buffer the worker hands back (see LentBuffers). */
  private readonly skimBuffers = new LentBuffers();
  /** Bytes in lane frames the worker has not been told of (see forward). */
  private deferred = 0;
  /** A shell pane's commands, followed on every byte before any is skimmed. */
  readonly tap: CommandTap | null;

  constructor(
    options: PtySpawnOptions,
    private readonly port: MessagePort,
    scheduler: ParseScheduler,
    private readonly sweep: DeferredOutputSweep,
    onShellEvent: (event: ShellEvent) => void,
  ) {
    this.lane = options.lane ? new OutputLaneWriter(options.lane) : null;
    this.tap = options.shell ? new CommandTap(options.shell, onShellEvent) : null;
    this.pty = PtyProcess.spawn(
      options,
      {
        deliver: (bytes, flooding, urgent) => this.forward(bytes, flooding, urgent),
        deferredBytes: () => this.deferred,
        announceDeferred: () => this.announceDeferred(),
        batchBuffer: (size) => this.batchBuffer(size),
        skim: (front, digest) => this.forwardSkim(front, digest, options.ringBytes),
        atPlainBoundary: (rows) => this.scanner.atGround && this.scanner.marginsAreFullScreen(rows),
      },
      scheduler,
    );
    port.on('message', (message: FromWorkerMessage) => this.onWorkerMessage(message));
  }

  /** In the lane while there is one and its worker reads it; once nobody will, a scratch buffer that is dropped. */
  private batchBuffer(size: number): Uint8Array | null {
    if (!this.lane || this.consumerGone) return new Uint8Array(size);
    this.laneSlot = this.lane.slot(size);
    return this.laneSlot;
  }

  /**
   * A batch goes to the worker announced (a message with its scan) when it is
   * urgent, part of a flood, holds something the scan found (a query to
   * answer, a title, a bell), or the worker asks for every batch (someone
   * watches or listens to the pane). Otherwise it is left in the lane for the
   * worker to drain: on its next message, before any read, or when the sweep
   * comes (deferred-output.ts).
   */
  private forward(bytes: Uint8Array, flooding: boolean, urgent: boolean): void {
    const lane = bytes === this.laneSlot ? this.lane : null;
    this.laneSlot = null;
    if (this.consumerGone) return; // the PTY counts it as parsed (dropConsumer)
    // Scanned here, in order, not in the worker: its parse is a flood's bottleneck,
    // and on escape-dense output the scan is a fair share of the worker's time.
    const emulatorQueries = this.scanner.emulatorQueries;
    const events = this.scanner.scan(bytes);
    const atGround = this.scanner.atGround;
    this.tap?.onBatch(bytes, events, atGround); // before a copied batch's buffer is transferred away
    if (!lane) {
      this.post({ t: 'copied-batch', bytes, flooding, scanned: { events, atGround } }, [bytes.buffer as ArrayBuffer]);
      return;
    }
    const noteworthy = events.length > 0 || this.scanner.emulatorQueries !== emulatorQueries;
    const announce = urgent || flooding || noteworthy || lane.eager;
    const span = lane.commit((announce ? FRAME_ANNOUNCED : 0) | (atGround ? FRAME_AT_GROUND : 0));
    if (announce) {
      this.deferred = 0; // the worker drains them before this one
      this.post({ t: 'lane-batch', span, flooding, scanned: { events, atGround } });
      return;
    }
    this.deferred += bytes.length;
    // The worker sets `eager` and then drains; read it again now that the frame is published,
    // so that a frame written just as the worker turned eager does not wait for the sweep.
    if (lane.eager) this.announceDeferred();
    else this.sweep.add(this);
  }

  /** Tells the worker of the frames left in the lane, if any. */
  announceDeferred(): void {
    if (this.deferred === 0 || this.consumerGone) return;
    this.deferred = 0;
    this.post({ t: 'lane-drain' });
  }

  private post(message: ToWorkerMessage, transfers: ArrayBuffer[] = []): void {
    this.port.postMessage(message, transfers);
  }

  /**
   * A skimmed front is plain output from one boundary to the next (skim-plan.ts),
   * so its bells are all the scan has left to find. Of its bytes the worker
   * gets only those its ring keeps: a held flood's fronts run to megabytes, and
   * copying and sending them whole to be dropped there cost the host thread
   * time in which it did not read the PTY.
   */
  private forwardSkim(front: Uint8Array, digest: Uint8Array, ringBytes: number): void {
    if (this.consumerGone) return;
    this.announceDeferred(); // frames left in the lane come before this front
    this.tap?.onPlain(front); // whole: the worker's ring keeps only its end
    const skipped = Math.max(0, front.length - ringBytes);
    const events = this.scanner.scanPlain(front).map((event) => ({ ...event, end: Math.max(0, event.end - skipped) }));
    const bytes = this.skimBuffers.take(front.length - skipped);
    bytes.set(front.subarray(skipped));
    const scanned = { events, atGround: this.scanner.atGround };
    this.post({ t: 'skim', bytes, digest, skipped, scanned }, [bytes.buffer as ArrayBuffer, digest.buffer as ArrayBuffer]);
  }

  private onWorkerMessage(message: FromWorkerMessage): void {
    if (message.t === 'ack') this.pty.onAcked();
    else if (message.t === 'reply') this.pty.write(message.data);
    else if (message.t === 'recycle') this.skimBuffers.give(message.buffer);
  }

  /** Runs `report` once every command event of a shell pane has gone out (at once for any other pane). */
  afterShellEvents(report: () => void): void {
    if (this.tap) this.tap.after(report);
    else report();
  }

  /** Nobody will ack again: release what is in flight, and everything from now on. */
  dropConsumer(): void {
    this.consumerGone = true;
    this.sweep.forget(this);
    this.port.close();
    this.skimBuffers.dispose();
    this.pty.dropConsumer();
  }

  destroy(): void {
    this.sweep.forget(this);
    this.tap?.dispose();
    this.pty.destroy();
    this.port.close();
    this.skimBuffers.dispose();
  }
}

export class PtyHostService implements PtyHostApi {
  private readonly ptys = new Map<string, HostedPty>();
  private readonly sweep = new DeferredOutputSweep();

  /** `ptyGone` hears of each PTY destroyed: what this thread held for it is garbage from then on. */
  constructor(
    private readonly scheduler: ParseScheduler,
    private readonly emit: (event: PtyHostEvent) => void,
    private readonly ptyGone: () => void = () => {},
  ) {}

  spawn(id: string, options: PtySpawnOptions, dataPort: MessagePort): PtySpawned {
    if (this.ptys.has(id)) throw new Error(`a PTY with id ${JSON.stringify(id)} is already running`);
    const hosted = new HostedPty(options, dataPort, this.scheduler, this.sweep, (event) => this.emit({ t: 'shell', id, event }));
    this.ptys.set(id, hosted);
    hosted.pty.onExit((exit) => hosted.afterShellEvents(() => this.emit({ t: 'exit', id, exit })));
    return { pid: hosted.pty.pid, input: hosted.pty.directInput() };
  }

  write(id: string, data: string | Uint8Array): void {
    this.hosted(id, 'write to').pty.write(data);
  }

  resize(id: string, cols: number, rows: number): void {
    this.hosted(id, 'resize').pty.resize(cols, rows);
  }

  setFocused(id: string, focused: boolean): void {
    const hosted = this.ptys.get(id);
    if (hosted) hosted.pty.focused = focused;
  }

  setAwaited(id: string, count: number): void {
    const hosted = this.ptys.get(id);
    if (hosted) hosted.pty.awaited = count;
  }

  consumerGone(id: string): void {
    this.ptys.get(id)?.dropConsumer();
  }

  async kill(id: string, signal: string, graceMs: number): Promise<void> {
    await this.hosted(id, 'kill').pty.kill(signal as NodeJS.Signals, graceMs);
  }

  destroy(id: string): void {
    const hosted = this.ptys.get(id);
    if (!hosted) return;
    hosted.destroy();
    this.ptys.delete(id);
    this.ptyGone();
  }

  expectShellNonce(id: string, nonce: string): void {
    const tap = this.hosted(id, 'expect a shell mark of').tap;
    if (!tap) throw new Error(`PTY ${JSON.stringify(id)} is not a shell pane's: it follows no marks`);
    tap.expect(nonce);
  }

  ping(): void {}

  /** A command for a PTY this host does not have is the caller's mistake, not something to drop silently. */
  private hosted(id: string, action: string): HostedPty {
    const hosted = this.ptys.get(id);
    if (!hosted) throw new Error(`cannot ${action} PTY ${JSON.stringify(id)}: the PTY host has no such PTY (never spawned, or destroyed)`);
    return hosted;
  }
}
