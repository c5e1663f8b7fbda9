/**
 * The pane worker's end of the output messages (OutputMessage, pane-protocol.ts)
 * and of the output lane: each batch to PaneService.onOutput, in the order the
 * PTY host wrote them.
 *
 * The lane's frames are taken by a pump: once woken it takes what the lane
 * holds, in steps of one event-loop turn each, and stops when the lane is
 * empty; the PTY host then wakes it again with a message (output-lane.ts). A
 * flood's batches so cost no message each, only their acks while the host
 * asks for them.
 */
import type { OutputMessage, ScannedBatch, ToWorkerMessage } from '../shared/pane-protocol.js';
import { FRAME_ANNOUNCED, FRAME_AT_GROUND, FRAME_FLOODING, FRAME_STREAMED, type LaneFrame, type LaneSpan, type OutputLaneReader } from '../shared/output-lane.js';
import { log } from '../node/patterm-log.js';
import type { PaneService } from './pane-service.js';

export function isOutputMessage(message: ToWorkerMessage): message is OutputMessage {
  return message.t === 'lane-batch' || message.t === 'lane-drain' || message.t === 'copied-batch' || message.t === 'skim';
}

/** A frame with no message had no scanned events (pty-host-service.ts): only where the scanner stood is in its flags. */
const NO_EVENTS: never[] = [];

export interface ReceiverHooks {
  /** Before each batch goes to the service: `flooding` when it is part of a sustained flood (a skim always is). */
  beforeBatch?(flooding: boolean): void;
  /** After each batch the pump took: whatever may have changed who watches the pane (a waiter matched) is looked at again. */
  afterPump?(): void;
}

/**
 * Feeds output to the service in the order the PTY host wrote it. A lane
 * frame goes back to the lane once copied; a skim's buffer goes to
 * `recycle`, for the PTY host to lend again (lent-buffers.ts).
 */
export class OutputReceiver {
  /** The pump's next step, when one is due in a later event-loop turn. */
  private nextPump: ReturnType<typeof setImmediate> | null = null;

  constructor(
    private readonly service: PaneService,
    private readonly lane: OutputLaneReader | null,
    private readonly recycle: (buffer: ArrayBuffer) => void,
    private readonly hooks: ReceiverHooks = {},
  ) {}

  receive(message: OutputMessage): void {
    switch (message.t) {
      case 'lane-batch':
        this.takeAnnounced(message.span, message.scanned);
        this.pump();
        return;
      case 'lane-drain':
        this.pump();
        return;
      case 'copied-batch':
        this.hooks.beforeBatch?.(message.flooding);
        this.service.onOutput(message.bytes, message.scanned);
        return;
      case 'skim': {
        if (message.marker) this.takeAnnounced(message.marker, { events: NO_EVENTS, atGround: true });
        else this.takeAll();
        const buffer = message.bytes.buffer as ArrayBuffer;
        this.hooks.beforeBatch?.(true);
        this.service.onOutput(message.bytes, message.scanned, message.digest, message.skipped, () => this.recycle(buffer));
        this.pump();
        return;
      }
    }
  }

  /**
   * Takes the frames the PTY host left to be drained, up to the first one
   * announced or streamed (a flood's, which the pump takes). Before any read
   * of the pane, so that no reader sees the screen behind that output, and
   * without waiting for a flood's parse.
   */
  drain(): void {
    const next = () => {
      const frame = this.lane?.peek();
      return frame && !(frame.flags & (FRAME_ANNOUNCED | FRAME_STREAMED)) ? frame : null;
    };
    if (!next()) return;
    this.service.burst(() => {
      for (let frame = next(); frame; frame = next()) this.take(frame, unscanned(frame));
    });
  }

  /** Whether the PTY host should have every frame reach the worker at once: someone watches or listens to the pane. Set before draining (see pty-host-service.ts). */
  updateEager(): void {
    this.lane?.setEager(this.service.wantsEveryBatch);
  }

  /**
   * One step of the pump: every frame published when it starts, streamed or
   * left to be drained, as one burst; then it goes on in the next event-loop
   * turn if more came meanwhile, or stops. A call waits at most for what was
   * in the lane, which the PTY host bounds to a couple of batches (as it did
   * when each came with a message of its own, all of which the worker took
   * before its next call). It stops before an announced frame too: that
   * frame's message takes it and starts the pump again.
   */
  private pump(): void {
    // Started by a message while a step was due: this is that step.
    if (this.nextPump) clearImmediate(this.nextPump);
    this.nextPump = null;
    const lane = this.lane;
    if (!lane) return;
    const until = lane.published();
    const next = () => {
      const frame = lane.peek();
      return frame && !(frame.flags & FRAME_ANNOUNCED) && ((until - frame.span.end) | 0) >= 0 ? frame : null;
    };
    if (next()) {
      this.service.burst(() => {
        for (let frame = next(); frame; frame = next()) this.take(frame, unscanned(frame));
      });
      this.hooks.afterPump?.();
    }
    const waiting = lane.peek();
    if (waiting ? !(waiting.flags & FRAME_ANNOUNCED) : lane.stopPump()) this.schedulePump();
  }

  private schedulePump(): void {
    this.nextPump ??= setImmediate(() => {
      this.nextPump = null;
      this.pump();
    });
  }

  /** Takes every frame up to and including the announced one at `span` (its message came), in order. */
  private takeAnnounced(span: LaneSpan, scanned: ScannedBatch): void {
    if (!this.lane) {
      log.warn('pane worker: a lane batch came for a pane with no output lane; dropped');
      return;
    }
    for (let frame = this.lane.peek(); frame; frame = this.lane.peek()) {
      if (frame.span.end === span.end) {
        this.take(frame, scanned);
        return;
      }
      if (frame.flags & FRAME_ANNOUNCED) break; // its own message comes first: this one is not in the lane where it should be
      this.take(frame, unscanned(frame));
    }
    log.error(`pane worker: the announced frame ending at ${span.end} is not next in the lane; it is parsed from its span`);
    this.hooks.beforeBatch?.(false);
    this.service.onOutput(this.lane.view(span), scanned, undefined, 0, () => this.lane!.done(span));
  }

  /** Takes every frame the lane holds now (a skim that came with no marker: see pty-host-service.ts). */
  private takeAll(): void {
    for (let frame = this.lane?.peek(); frame; frame = this.lane?.peek()) this.take(frame, unscanned(frame));
  }

  private take(frame: LaneFrame, scanned: ScannedBatch): void {
    const lane = this.lane!;
    lane.take(frame);
    this.hooks.beforeBatch?.((frame.flags & FRAME_FLOODING) !== 0);
    this.service.onOutput(lane.view(frame.span), scanned, undefined, 0, () => lane.done(frame.span));
  }
}

function unscanned(frame: LaneFrame): ScannedBatch {
  return { events: NO_EVENTS, atGround: (frame.flags & FRAME_AT_GROUND) !== 0 };
}
