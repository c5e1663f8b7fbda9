/**
 * The fence that keeps a fast exit's last output (used by pty-process.ts).
 *
 * Output written just before a fast exit can be lost: once the last slave fd
 * closes, the master's read may fail with EIO while bytes are still in flight
 * (bare node-pty loses data this way; test/workers/exit-drain.test.ts). So we
 * keep a slave fd open ourselves. When the child exits, we
 * write a unique marker into the slave: it comes out of the master after every
 * byte the child wrote. When the marker arrives, everything has been read and
 * we let go of the slave, which ends the stream. No timing guesses involved.
 */
import { closeSync, constants as fsConstants, openSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { logDegraded, logIgnored } from '../node/patterm-log.js';

const NOTHING = Buffer.alloc(0);

export class ExitDrain {
  private marker: Buffer | null = null;
  /** The tail of the last read that could be the start of the marker. */
  private carry: Buffer = NOTHING;

  private constructor(private slaveFd: number | null) {}

  /** Opens our own handle on the slave; null when that fails (the child already exited: nothing left to protect). */
  static hold(slavePath: string): ExitDrain | null {
    try {
      return new ExitDrain(openSync(slavePath, fsConstants.O_RDWR | fsConstants.O_NOCTTY | fsConstants.O_NONBLOCK));
    } catch (error) {
      logIgnored(`holding the slave ${slavePath}`, error);
      return null;
    }
  }

  /** The slave is still held: the master cannot see the end of the stream yet. */
  get holding(): boolean {
    return this.slaveFd !== null;
  }

  /** The marker is on its way: output up to it is the child's last. */
  get draining(): boolean {
    return this.marker !== null;
  }

  /**
   * Writes the marker behind the child's last output. If the slave will not
   * take it (its buffer is full, or it is gone) the hold is released at once:
   * the stream then ends the way it would without us, and nothing is held back
   * waiting for a marker that never comes.
   */
  start(): void {
    if (this.slaveFd === null || this.marker !== null) return;
    const marker = Buffer.from(`\x1b_patterm-drain-${randomBytes(8).toString('hex')}\x1b\\`);
    try {
      writeSync(this.slaveFd, marker);
      this.marker = marker;
    } catch (error) {
      logDegraded('writing the exit-drain marker; the stream ends without it, and the last output may be lost', error);
      this.release();
    }
  }

  /** Output up to the marker; a possible partial marker at the end is held back until the next read decides it. */
  filter(data: Buffer): Buffer {
    if (!this.marker) return data;
    const combined = this.carry.length > 0 ? Buffer.concat([this.carry, data]) : data;
    const at = combined.indexOf(this.marker);
    if (at !== -1) {
      this.carry = NOTHING;
      this.marker = null;
      this.release();
      return combined.subarray(0, at);
    }
    const keep = Math.min(combined.length, this.marker.length - 1);
    this.carry = Buffer.from(combined.subarray(combined.length - keep));
    return combined.subarray(0, combined.length - keep);
  }

  /**
   * The stream ended before the marker came (node-pty gave up on it): the
   * bytes held back as a possible start of the marker are the child's last
   * output, not the marker, and are handed on rather than dropped.
   */
  takeHeld(): Buffer {
    const held = this.carry;
    this.carry = NOTHING;
    this.marker = null;
    return held;
  }

  /** Lets go of the slave, so the master sees the end of the stream. */
  release(): void {
    if (this.slaveFd === null) return;
    try {
      closeSync(this.slaveFd);
    } catch (error) {
      logIgnored(`closing the held slave fd ${this.slaveFd}`, error);
    }
    this.slaveFd = null;
  }
}
