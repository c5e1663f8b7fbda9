/**
 * Keystroke-to-echo latency of a quiet pane, measured the way the TUI sees it:
 * the pane pushes its frames to a port (as it does to the renderer for the
 * focused pane), and a sample ends when a frame shows the cursor past the new
 * key. The pane runs `cat`, so the echo comes from the kernel's line
 * discipline and the figure is patterm's own path (PTY read, worker parse,
 * frame push), not the child's scheduling.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Coordinator } from '../../src/main/coordinator.js';
import type { CellFrame } from '../../src/shared/pane-types.js';

/** Characters typed on one line before it is erased with ^U, to keep the cursor arithmetic simple. */
const KEYS_PER_LINE = 60;
const VERASE_LINE = '\x15';

export const QUIET_PANE_ARGV = ['cat'];

export class EchoProbe {
  private column = 0;
  private cursorX = -1;
  private wake: (() => void) | null = null;
  private readonly port: MessagePort;

  constructor(
    private readonly coordinator: Coordinator,
    private readonly paneId: string,
  ) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.on('message', (frame: CellFrame) => {
      this.cursorX = frame.cursor.x;
      this.wake?.();
    });
    coordinator.attachFrameSink(paneId, channel.port2);
  }

  /** Resolves when a frame shows the cursor at `column`. */
  private async cursorAt(column: number, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (this.cursorX !== column) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw new Error(`echo did not arrive within ${timeoutMs} ms (cursor at ${this.cursorX}, want ${column})`);
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
    this.port.close();
  }
}
