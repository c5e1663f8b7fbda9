/**
 * Writes input to a PTY master that another thread owns, in order, without
 * ever writing to a closed (or reused) descriptor: every write holds the
 * master's InputLease (see input-lease.ts). Used by the TUI renderer for the
 * focused pane's keys and by the coordinator for everything else it writes,
 * so input never waits for the PTY host thread's event loop.
 *
 * The master is non-blocking: what the kernel does not take now (a program
 * that is not reading its input, a large paste) waits here, in order, and is
 * retried; later input queues behind it. Input written while the lease is
 * held (a resize on its way) waits the same way.
 */
import { writeSync } from 'node:fs';
import { InputLease, type DirectInputChannel } from '../shared/input-lease.js';
import { logDegraded } from './patterm-log.js';

/**
 * Input the PTY would not take yet is retried at once (setImmediate) for this
 * long after it blocked: a program reading a paste frees room within
 * microseconds, and a timer's minimum delay would slow a paste several times.
 */
const SPIN_MS = 10;
/** After SPIN_MS, the pace of retries: a program that is not reading its input must not cost a core. */
const RETRY_MS = 2;

export class LeasedWriter {
  private readonly fd: number;
  private readonly lease: InputLease;
  private readonly queue: Uint8Array[] = [];
  private retry: { cancel(): void } | null = null;
  /** When the queue's head last stopped making progress (Date.now), or 0. */
  private blockedSince = 0;
  private broken = false;

  /** `label` names the pane in the log; `giveUp`: input this writer cannot deliver after an unexpected write error, in order, to send another way. */
  constructor(
    channel: DirectInputChannel,
    private readonly label: string,
    private readonly giveUp: (chunks: Uint8Array[]) => void,
  ) {
    this.fd = channel.fd;
    this.lease = new InputLease(channel.lease);
  }

  /** The owner has not revoked the lease: the master is still open. */
  get leaseOpen(): boolean {
    return this.lease.isOpen;
  }

  /** False when this writer cannot take input (the pane is ending, or writing failed): send it another way. */
  write(bytes: Uint8Array): boolean {
    if (this.broken || !this.lease.isOpen) return false;
    this.queue.push(bytes);
    if (this.queue.length === 1) this.drain();
    return true;
  }

  /** Stops writing; returns what was still queued, in order. */
  detach(): Uint8Array[] {
    this.broken = true;
    this.cancelRetry();
    return this.queue.splice(0);
  }

  private drain(): void {
    while (this.queue.length > 0) {
      if (this.lease.held) {
        this.scheduleRetry(false);
        return;
      }
      const chunk = this.queue[0];
      let written: number | null;
      try {
        written = this.lease.holding(() => writeSome(this.fd, chunk), null);
      } catch (error) {
        logDegraded(`writing input to ${this.label}'s PTY master (fd ${this.fd}); this writer stops, and its input goes the slow way`, error);
        this.giveUp(this.detach());
        return;
      }
      if (written === null) {
        this.queue.length = 0; // the pane ended: its input has nowhere to go
        return;
      }
      if (written < chunk.length) {
        this.queue[0] = chunk.subarray(written);
        this.scheduleRetry(written > 0);
        return;
      }
      this.queue.shift();
    }
    this.blockedSince = 0;
  }

  private scheduleRetry(progressed: boolean): void {
    const now = Date.now();
    if (progressed || this.blockedSince === 0) this.blockedSince = now;
    const again = () => {
      this.retry = null;
      this.drain();
    };
    if (now - this.blockedSince < SPIN_MS) {
      const immediate = setImmediate(again);
      this.retry = { cancel: () => clearImmediate(immediate) };
    } else {
      const timer = setTimeout(again, RETRY_MS);
      this.retry = { cancel: () => clearTimeout(timer) };
    }
  }

  private cancelRetry(): void {
    this.retry?.cancel();
    this.retry = null;
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
