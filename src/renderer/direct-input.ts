/**
 * Writes the user's keystrokes straight to the focused pane's PTY master from
 * the renderer thread, so typing never waits on another thread's event loop
 * (under a flood, a keystroke routed through the coordinator paid its lag
 * twice: once to reach the renderer, once to come back).
 *
 * Only the focused pane is written directly, through a LeasedWriter; input for
 * any other pane, or for one that cannot take direct input, goes the slow way.
 */
import type { DirectInputChannel } from '../shared/input-lease.js';
import { LeasedWriter } from '../node/leased-writer.js';

interface Target {
  paneId: string;
  writer: LeasedWriter;
}

export class DirectInput {
  private target: Target | null = null;

  constructor(
    /** The slow way, through the coordinator: for input this channel could not deliver. */
    private readonly fallback: (paneId: string, bytes: Uint8Array) => void,
  ) {}

  /** The focused pane's channel, or null: from now on only that pane is written directly. */
  setTarget(paneId: string | null, channel: DirectInputChannel | null): void {
    this.handBack();
    this.target = paneId && channel ? { paneId, writer: new LeasedWriter(channel, `pane ${paneId}`, (chunks) => this.sendSlowly(paneId, chunks)) } : null;
  }

  /**
   * Writes (or queues) `bytes` for `paneId`. False when this pane has no
   * direct channel (not focused, or ending): the caller sends them the slow way.
   */
  write(paneId: string, bytes: Uint8Array): boolean {
    const target = this.target;
    return target !== null && target.paneId === paneId && target.writer.write(bytes);
  }

  dispose(): void {
    this.target?.writer.detach();
    this.target = null;
  }

  /** Input still queued for the old target goes the slow way, in order. */
  private handBack(): void {
    const target = this.target;
    this.target = null;
    if (target) this.sendSlowly(target.paneId, target.writer.detach());
  }

  private sendSlowly(paneId: string, chunks: Uint8Array[]): void {
    for (const chunk of chunks) this.fallback(paneId, chunk);
  }
}
