/**
 * Flow-control acks for one pane in shared memory: the pane worker counts the
 * bytes it has parsed, the PTY host reads the count when it needs it.
 *
 * Why not an ack message per batch: an agent's spinner redraws ~12 times a
 * second, and each redraw's ack woke the PTY host thread once more just to
 * subtract a few bytes, many times a second across animating panes.
 * The host only needs to hear about an ack while it is waiting on one
 * (paused, holding a parse turn, holding output back, or draining an exit);
 * it says so in `wanted`, and then the worker also posts a message.
 *
 * Ordering: the worker adds, then reads `wanted`; the host sets `wanted`, then
 * reads the count (both sequentially consistent). So either the worker sees the
 * request and posts, or the host's read already includes the bytes: an ack is
 * never lost between the two.
 *
 * Counts wrap at 2^32; the difference of two counts is exact while fewer than
 * 2^31 bytes are in flight, and flow control keeps that to a few MiB.
 */
const PARSED = 0;
const WANTED = 1;

export class SharedAcks {
  private readonly cells: Int32Array;

  static allocate(): SharedArrayBuffer {
    return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  }

  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /** Worker: `bytes` more are parsed. True when the host asked to be told (post an ack message). */
  add(bytes: number): boolean {
    Atomics.add(this.cells, PARSED, bytes | 0);
    return Atomics.load(this.cells, WANTED) !== 0;
  }

  /** Host: parsed bytes so far, modulo 2^32 (compare with `inFlight`). */
  parsed(): number {
    return Atomics.load(this.cells, PARSED);
  }

  /** Host: bytes handed over (`delivered`, counted the same way) that are not parsed yet. */
  inFlight(delivered: number): number {
    return (delivered - this.parsed()) | 0;
  }

  /** Host: whether every ack should also come as a message. */
  setWanted(wanted: boolean): void {
    Atomics.store(this.cells, WANTED, wanted ? 1 : 0);
  }

  /** Host, once the worker is gone: count everything delivered as parsed. */
  settle(delivered: number): void {
    Atomics.store(this.cells, PARSED, delivered | 0);
  }
}
