/**
 * Writes the user's keystrokes straight to the focused pane's PTY master from
 * the renderer thread. The coordinator thread reads every pane's output; under
 * a flood its event loop lags by several milliseconds, and a keystroke routed
 * through it paid that twice (once to reach the renderer, once to come back).
 *
 * The master belongs to the coordinator, which may close it when the pane
 * ends, so every write holds the pane's InputLease (see input-lease.ts).
 * The master is non-blocking: what the kernel does not take now (a program
 * that is not reading its input, a large paste) waits here, in order, and is
 * retried; keys typed meanwhile queue behind it.
 */
import { writeSync } from 'node:fs';
import { InputLease, type DirectInputChannel } from '../shared/input-lease.js';

/** Retry pace for input the PTY would not take yet: a program reading its input frees room within a tick. */
const RETRY_MS = 2;

interface Target {
  paneId: string;
  fd: number;
  lease: InputLease;
  queue: Uint8Array[];
}

export class DirectInput {
  private target: Target | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** The slow way, through the coordinator: for input this channel could not deliver. */
    private readonly fallback: (paneId: string, bytes: Uint8Array) => void,
  ) {}

  /** The focused pane's channel, or null: from now on only that pane is written directly. */
  setTarget(paneId: string | null, channel: DirectInputChannel | null): void {
    this.cancelRetry();
    this.handBack();
    this.target = paneId && channel ? { paneId, fd: channel.fd, lease: new InputLease(channel.lease), queue: [] } : null;
  }

  /**
   * Writes (or queues) `bytes` for `paneId`. False when this pane has no
   * direct channel (not focused, or ending): the caller sends them the slow way.
   */
  write(paneId: string, bytes: Uint8Array): boolean {
    const target = this.target;
    if (!target || target.paneId !== paneId || !target.lease.isOpen) return false;
    target.queue.push(bytes);
    if (target.queue.length === 1) this.drain(target);
    return true;
  }

  dispose(): void {
    this.cancelRetry();
    this.target = null;
  }

  /** Input still queued for the old target goes the slow way, in order. */
  private handBack(): void {
    const target = this.target;
    this.target = null;
    if (!target) return;
    for (const chunk of target.queue.splice(0)) this.fallback(target.paneId, chunk);
  }

  private drain(target: Target): void {
    while (target.queue.length > 0) {
      const chunk = target.queue[0];
      let written: number | null;
      try {
        written = target.lease.holding(() => writeSome(target.fd, chunk), null);
      } catch {
        this.handBack(); // an unexpected write error: stop writing directly to this pane
        return;
      }
      if (written === null) {
        target.queue.length = 0; // the pane ended: its input has nowhere to go
        return;
      }
      if (written < chunk.length) {
        target.queue[0] = chunk.subarray(written);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          if (this.target === target) this.drain(target);
        }, RETRY_MS);
        return;
      }
      target.queue.shift();
    }
  }

  private cancelRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}

/** Bytes the kernel took now: 0 when the PTY's input buffer is full. */
function writeSome(fd: number, bytes: Uint8Array): number {
  try {
    return writeSync(fd, bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
    throw error;
  }
}
