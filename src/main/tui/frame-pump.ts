/**
 * Connects the focused pane's worker straight to the renderer thread: a
 * MessageChannel per focus, one end to the pane's worker (which posts a
 * CellFrame after every screen change), the other to the renderer. Frames
 * never wait on this thread, which is busy with every pane's PTY I/O.
 *
 * The renderer closes the previous port when a new one arrives; the worker
 * sees the close and stops pushing frames for the old focus.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Disposable } from '../../shared/events.js';

export interface FrameSource {
  has(paneId: string): boolean;
  attachFrameSink(paneId: string, port: MessagePort): void;
  /** No pane is shown any more (the empty canvas). */
  clearFrameSink(): void;
}

export class FramePump implements Disposable {
  private focused: string | null = null;
  private disposed = false;

  constructor(
    private readonly source: FrameSource,
    /** Hands the renderer its end of the channel (transferred), or null when nothing is focused. */
    private readonly deliver: (paneId: string | null, port: MessagePort | null) => void,
  ) {}

  setFocus(paneId: string | null): void {
    if (this.disposed || paneId === this.focused) return;
    this.focused = paneId;
    if (!paneId || !this.source.has(paneId)) {
      this.source.clearFrameSink();
      this.deliver(null, null);
      return;
    }
    const { port1, port2 } = new MessageChannel();
    this.source.attachFrameSink(paneId, port2);
    this.deliver(paneId, port1);
  }

  dispose(): void {
    this.disposed = true;
  }
}
