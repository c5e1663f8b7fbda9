/**
 * Streams the focused pane's cells to the renderer. Only the focused pane is
 * pulled (the others' screens are not on show), one request at a time; a
 * change that lands while a pull is in flight triggers exactly one more, so
 * the renderer always ends on the latest screen without queueing stale ones.
 */
import type { CellFrame } from '../../shared/pane-types.js';
import type { Disposable } from '../../shared/events.js';

export interface FrameSource {
  cells(paneId: string): Promise<CellFrame>;
  has(paneId: string): boolean;
}

export class FramePump implements Disposable {
  private focused: string | null = null;
  private inFlight = false;
  private again = false;
  private disposed = false;

  constructor(
    private readonly source: FrameSource,
    private readonly deliver: (paneId: string, frame: CellFrame) => void,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  setFocus(paneId: string | null): void {
    this.focused = paneId;
    this.pull();
  }

  /** The pane's screen changed. */
  dirty(paneId: string): void {
    if (paneId === this.focused) this.pull();
  }

  private pull(): void {
    if (this.disposed || !this.focused) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const paneId = this.focused;
    if (!this.source.has(paneId)) return;
    this.inFlight = true;
    this.source
      .cells(paneId)
      .then((frame) => {
        if (!this.disposed && paneId === this.focused) this.deliver(paneId, frame);
      }, this.onError)
      .finally(() => {
        this.inFlight = false;
        if (this.again || paneId !== this.focused) {
          this.again = false;
          this.pull();
        }
      });
  }

  dispose(): void {
    this.disposed = true;
  }
}
