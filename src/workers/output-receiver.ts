/** The pane worker's end of the output messages (OutputMessage, pane-protocol.ts) and of the output lane: each batch to PaneService.onOutput, in order. */
import type { OutputMessage, ScannedBatch, ToWorkerMessage } from '../shared/pane-protocol.js';
import { FRAME_ANNOUNCED, FRAME_AT_GROUND, type LaneFrame, type LaneSpan, type OutputLaneReader } from '../shared/output-lane.js';
import { log } from '../node/patterm-log.js';
import type { PaneService } from './pane-service.js';

export function isOutputMessage(message: ToWorkerMessage): message is OutputMessage {
  return message.t === 'lane-batch' || message.t === 'lane-drain' || message.t === 'copied-batch' || message.t === 'skim';
}

/** A frame left unannounced had no scanned events (pty-host-service.ts): only where the scanner stood is in its flags. */
const NO_EVENTS: never[] = [];

/**
 * Feeds output to the service in the order the PTY host wrote it. A lane
 * frame goes back to the lane once copied; a skim's buffer goes to
 * `recycle`, for the PTY host to lend again (lent-buffers.ts).
 */
export class OutputReceiver {
  constructor(
    private readonly service: PaneService,
    private readonly lane: OutputLaneReader | null,
    private readonly recycle: (buffer: ArrayBuffer) => void,
  ) {}

  receive(message: OutputMessage): void {
    switch (message.t) {
      case 'lane-batch':
        this.takeAnnounced(message.span, message.scanned);
        return;
      case 'lane-drain':
        this.drain();
        return;
      case 'copied-batch':
        this.service.onOutput(message.bytes, message.scanned);
        return;
      case 'skim': {
        const buffer = message.bytes.buffer as ArrayBuffer;
        this.service.onOutput(message.bytes, message.scanned, message.digest, message.skipped, () => this.recycle(buffer));
        return;
      }
    }
  }

  /**
   * Takes the frames the PTY host left unannounced, up to the first announced
   * one (its message, with its scan, is on its way). Before any read of the
   * pane, so that no reader sees the screen behind its output.
   */
  drain(): void {
    const next = () => {
      const frame = this.lane?.peek();
      return frame && !(frame.flags & FRAME_ANNOUNCED) ? frame : null;
    };
    if (!next()) return;
    this.service.burst(() => {
      for (let frame = next(); frame; frame = next()) this.take(frame, { events: NO_EVENTS, atGround: (frame.flags & FRAME_AT_GROUND) !== 0 });
    });
  }

  /** Whether the PTY host should announce every frame: someone watches or listens to the pane. Set before draining (see pty-host-service.ts). */
  updateEager(): void {
    this.lane?.setEager(this.service.wantsEveryBatch);
  }

  private takeAnnounced(span: LaneSpan, scanned: ScannedBatch): void {
    if (!this.lane) {
      log.warn('pane worker: a lane batch came for a pane with no output lane; dropped');
      return;
    }
    this.drain();
    const frame = this.lane.peek();
    if (!frame || frame.span.end !== span.end) {
      log.error(`pane worker: the lane's next frame (${frame ? `ending at ${frame.span.end}` : 'none'}) is not the one announced (ending at ${span.end}); the announced one is parsed from its span`);
      this.service.onOutput(this.lane.view(span), scanned, undefined, 0, () => this.lane!.done(span));
      return;
    }
    this.take(frame, scanned);
  }

  private take(frame: LaneFrame, scanned: ScannedBatch): void {
    const lane = this.lane!;
    lane.take(frame);
    this.service.onOutput(lane.view(frame.span), scanned, undefined, 0, () => lane.done(frame.span));
  }
}
