/** The pane worker's end of the output messages (OutputMessage, pane-protocol.ts): each kind to PaneService.onOutput. */
import type { OutputMessage, ToWorkerMessage } from '../shared/pane-protocol.js';
import type { OutputLaneReader } from '../shared/output-lane.js';
import { log } from '../node/patterm-log.js';
import type { PaneService } from './pane-service.js';

export function isOutputMessage(message: ToWorkerMessage): message is OutputMessage {
  return message.t === 'lane-batch' || message.t === 'copied-batch' || message.t === 'skim';
}

/**
 * Feeds one output message to the service. A lane batch's span goes back to
 * the lane once copied; a skim's buffer goes to `recycle`, for the PTY host
 * to lend again (lent-buffers.ts).
 */
export function receiveOutput(service: PaneService, message: OutputMessage, lane: OutputLaneReader | null, recycle: (buffer: ArrayBuffer) => void): void {
  switch (message.t) {
    case 'lane-batch': {
      if (!lane) {
        log.warn('pane worker: a lane batch came for a pane with no output lane; dropped');
        return;
      }
      const span = message.span;
      service.onOutput(lane.view(span), message.scanned, undefined, 0, () => lane.done(span));
      return;
    }
    case 'copied-batch':
      service.onOutput(message.bytes, message.scanned);
      return;
    case 'skim': {
      const buffer = message.bytes.buffer as ArrayBuffer;
      service.onOutput(message.bytes, message.scanned, message.digest, message.skipped, () => recycle(buffer));
      return;
    }
  }
}
