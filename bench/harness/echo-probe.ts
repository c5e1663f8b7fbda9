/**
 * Keystroke-to-echo latency of a quiet pane, measured the way the TUI sees it:
 * write one key, then wait for the pane's dirty notice and read its grid until
 * the echo is there. The pane runs `cat`, so the echo comes from the kernel's
 * line discipline and the figure is patterm's own path (PTY read, worker parse,
 * dirty notice, grid read), not the child's scheduling.
 */
import type { Coordinator } from '../../src/main/coordinator.js';
import type { Disposable } from '../../src/shared/events.js';

/** Characters typed on one line before it is erased with ^U, to keep the cursor arithmetic simple. */
const KEYS_PER_LINE = 60;
const VERASE_LINE = '\x15';

export const QUIET_PANE_ARGV = ['cat'];

export class EchoProbe {
  private column = 0;
  /** Dirty notices seen for this pane; compared across a grid read so a notice during the read is not missed. */
  private dirtyCount = 0;
  private wake: (() => void) | null = null;
  private readonly subscription: Disposable;

  constructor(
    private readonly coordinator: Coordinator,
    private readonly paneId: string,
  ) {
    this.subscription = coordinator.onScreenDirty(({ paneId }) => {
      if (paneId !== this.paneId) return;
      this.dirtyCount++;
      this.wake?.();
    });
  }

  /** Resolves when the grid shows the cursor at `column`, re-reading on every dirty notice of the pane. */
  private async cursorAt(column: number, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const seen = this.dirtyCount;
      const grid = await this.coordinator.grid(this.paneId);
      if (grid.cursor.x === column) return;
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw new Error(`echo did not arrive within ${timeoutMs} ms (cursor at ${grid.cursor.x}, want ${column})`);
      if (this.dirtyCount !== seen) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** One sample, in ms. */
  async sample(timeoutMs = 5000): Promise<number> {
    if (this.column >= KEYS_PER_LINE) {
      this.coordinator.write(this.paneId, VERASE_LINE, 'user');
      await this.cursorAt(0, timeoutMs);
      this.column = 0;
    }
    const started = performance.now();
    this.coordinator.write(this.paneId, 'k', 'user');
    this.column++;
    await this.cursorAt(this.column, timeoutMs);
    return performance.now() - started;
  }

  async ready(timeoutMs = 10_000): Promise<void> {
    await this.cursorAt(0, timeoutMs);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
