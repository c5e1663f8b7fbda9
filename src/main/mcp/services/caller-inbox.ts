/**
 * Messages for a session root that has no input box to type them into: an
 * MCP host driving patterm from outside (`patterm mcp`, or a host attached to
 * the TUI). What a pane would get typed into its input (`[sub-agent:…]`
 * reports, `[system]` notices, timers) waits here, and the host gets it with
 * its next tool result (tool-dispatcher.ts), as a model gets a typed message
 * with its next turn.
 */
import { Emitter, type Disposable } from '../../../shared/events.js';
import type { PaneId } from '../../../shared/pane-types.js';

/** A host that stops calling must not grow patterm's memory without bound; the oldest go first. */
export const MAX_KEPT_MESSAGES = 200;

export interface KeptMessage {
  paneId: PaneId;
  text: string;
}

export class CallerInbox implements Disposable {
  private readonly boxes = new Map<PaneId, { messages: string[]; dropped: number }>();
  private readonly kept = new Emitter<KeptMessage>();
  /** Each message as it is kept (the host's pane shows it to the human). */
  readonly onKept = this.kept.event;

  /** From now on, messages for `paneId` are kept here instead of typed. */
  open(paneId: PaneId): void {
    if (!this.boxes.has(paneId)) this.boxes.set(paneId, { messages: [], dropped: 0 });
  }

  close(paneId: PaneId): void {
    this.boxes.delete(paneId);
  }

  has(paneId: PaneId): boolean {
    return this.boxes.has(paneId);
  }

  /** Keeps `text` for `paneId`; false when the pane has no inbox (it takes typed messages). */
  keep(paneId: PaneId, text: string): boolean {
    const box = this.boxes.get(paneId);
    if (!box) return false;
    box.messages.push(text);
    if (box.messages.length > MAX_KEPT_MESSAGES) {
      box.messages.shift();
      box.dropped++;
    }
    this.kept.fire({ paneId, text });
    return true;
  }

  /** Everything kept for `paneId` since the last take, oldest first, with a line for any the cap dropped. */
  take(paneId: PaneId): string[] {
    const box = this.boxes.get(paneId);
    if (!box || (box.messages.length === 0 && box.dropped === 0)) return [];
    const taken = box.dropped > 0 ? [`[system] ${box.dropped} older message${box.dropped === 1 ? ' was' : 's were'} dropped (more than ${MAX_KEPT_MESSAGES} waited for you)`, ...box.messages] : box.messages;
    this.boxes.set(paneId, { messages: [], dropped: 0 });
    return taken;
  }

  dispose(): void {
    this.boxes.clear();
    this.kept.dispose();
  }
}
