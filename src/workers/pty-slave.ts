/**
 * What the PTY host keeps of a node-pty process beyond node-pty's own API:
 * its own handle on the slave, so a fast exit's last output is read
 * (exit-drain.ts), and the lease that lets another thread write keystrokes
 * to the master (input-lease.ts). Both lean on node-pty 1.1.0 internals (a
 * pinned version), which stay in this file.
 */
import type { IPty } from 'node-pty';
import { InputLease, type DirectInputChannel } from '../shared/input-lease.js';
import { ExitDrain } from './exit-drain.js';

interface NodePtyInternals {
  _pty: string;
  _fd: number;
  _socket: NodeJS.EventEmitter & { destroy(...args: unknown[]): unknown };
}

export class PtySlave {
  /** Null if the child was gone before the slave could be opened: nothing left to protect. */
  private readonly drain: ExitDrain | null;
  /**
   * Only offered while we hold the slave: then the master cannot close
   * before the drain starts, and every path to closing it revokes the lease
   * first.
   */
  private readonly inputLease: InputLease | null;
  private reapedFlag = false;
  /** node-pty's give-up on the stream, put off while the marker is on its way (see holdStreamOpen). */
  private deferredDestroy: (() => void) | null = null;

  /** `onReaped` runs once node-pty has reaped the child; the caller then starts the drain. */
  constructor(
    private readonly pty: IPty,
    onReaped: () => void,
  ) {
    const internals = pty as unknown as NodePtyInternals;
    this.drain = ExitDrain.hold(internals._pty);
    this.inputLease = this.drain ? InputLease.open() : null;
    // node-pty subscribes to its socket's 'close' once it has reaped the child: that is our cue.
    internals._socket.on('newListener', (event: string) => {
      if (event !== 'close' || this.reapedFlag) return;
      this.reapedFlag = true;
      onReaped();
    });
  }

  /** node-pty has reaped the child: from here on its pid may be another process's, and is never signalled. */
  get reaped(): boolean {
    return this.reapedFlag;
  }

  /** The exit marker is on its way through the master: flow control must not pause it. */
  get draining(): boolean {
    return this.drain?.draining ?? false;
  }

  /** A read from the master, less the drain's marker. */
  filter(raw: Buffer): Buffer {
    if (!this.drain) return raw;
    const data = this.drain.filter(raw);
    if (!this.drain.draining) this.endDeferredDestroy();
    return data;
  }

  /** The stream ended without the marker: what the drain held back, to be delivered as the child's last output. */
  takeHeld(): Buffer {
    return this.drain ? this.drain.takeHeld() : Buffer.alloc(0);
  }

  /** The master fd and its lease, for writing input from another thread; null once the pane is ending. */
  directInput(): DirectInputChannel | null {
    if (!this.inputLease?.isOpen) return null;
    return { fd: (this.pty as unknown as NodePtyInternals)._fd, lease: this.inputLease.buffer };
  }

  revokeInput(): void {
    this.inputLease?.revoke();
  }

  /**
   * The child has exited: sends the marker after its last output. True when
   * the caller must read now, paused or not: the stream ends only once the
   * marker is read (holdStreamOpen), and the tail is bounded by kernel buffers.
   */
  startDrain(): boolean {
    // From here on node-pty may close the master at any moment.
    this.revokeInput();
    if (!this.drain?.holding) return false;
    this.drain.start();
    if (this.drain.draining) this.holdStreamOpen();
    return true;
  }

  release(): void {
    this.revokeInput();
    this.drain?.release();
    this.endDeferredDestroy();
  }

  /**
   * node-pty destroys the socket when it has not closed within a fixed time
   * after the exit, dropping whatever the kernel still holds: on a loaded
   * machine, a fast exit's last lines. While the marker is on its way the
   * stream's end is known to come, so that destroy waits for the marker
   * (behind which every byte of the child's has been read), then runs, for a
   * slave that a leftover process still holds open.
   */
  private holdStreamOpen(): void {
    const socket = (this.pty as unknown as NodePtyInternals)._socket;
    const destroy = socket.destroy;
    socket.destroy = (...args: unknown[]) => {
      if (!this.drain?.draining || !this.drain.holding) return destroy.apply(socket, args);
      this.deferredDestroy = () => destroy.apply(socket, args);
      return socket;
    };
  }

  /** The marker came, or the hold was let go: a destroy node-pty asked for meanwhile happens now, after the read in hand is delivered. */
  private endDeferredDestroy(): void {
    const destroy = this.deferredDestroy;
    if (!destroy) return;
    this.deferredDestroy = null;
    setImmediate(destroy);
  }
}
