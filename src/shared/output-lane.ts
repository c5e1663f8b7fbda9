/**
 * Shared memory that a pane's output batches cross from the PTY host to the
 * pane's worker, instead of each batch going over as its own ArrayBuffer.
 *
 * Why: V8 frees an ArrayBuffer only at a garbage collection, and a pane
 * worker allocates so little on its JS heap that it collects rarely while a
 * flood sends it batches, so dead batches piled up in its RSS (bench
 * `flood-memory`; figures: docs/perf-notes.md). Batches written into this
 * ring leave nothing behind.
 *
 * The PTY host writes a batch into a contiguous span and posts the span; the
 * worker reads it in place and, once the bytes are copied (into its output
 * ring and the emulator), stores the span's end in the header. A batch never
 * wraps: when it does not fit before the end, the tail is left unused and it
 * starts at the front. Positions count bytes written, modulo 2^32.
 */

/**
 * Room for the batches in flight (pty-process.ts allows two of 64 KiB, and a
 * small echo on top) several times over, with room to wrap. 512 KiB per pane
 * is 10 MiB for twenty panes, touched only as far as output has gone.
 */
export const OUTPUT_LANE_BYTES = 512 * 1024;
/** The header: the position up to which the worker is done with the lane. */
const HEADER_BYTES = 8;
const CONSUMED = 0;

/** Where one batch lies in the lane; `end` is the position the worker reports once it is done with it. */
export interface LaneSpan {
  at: number;
  length: number;
  end: number;
}

/** `bytes` must be a power of two, so that positions modulo 2^32 map onto the lane the same way across their wrap. */
export function allocateOutputLane(bytes = OUTPUT_LANE_BYTES): SharedArrayBuffer {
  if (bytes <= 0 || (bytes & (bytes - 1)) !== 0) throw new RangeError(`an output lane's size must be a power of two (received ${bytes})`);
  return new SharedArrayBuffer(HEADER_BYTES + bytes);
}

/** The PTY host's side: hands out spans to write batches into. */
export class OutputLaneWriter {
  private readonly data: Uint8Array;
  private readonly consumed: Int32Array;
  /** Position after the last span handed out, modulo 2^32. */
  private written = 0;
  private reserved: { start: number; padding: number } | null = null;

  constructor(buffer: SharedArrayBuffer) {
    this.consumed = new Int32Array(buffer, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
    this.data = new Uint8Array(buffer, HEADER_BYTES);
  }

  get capacity(): number {
    return this.data.length;
  }

  /**
   * A view of `size` bytes to write the next batch into, or null while the
   * worker has yet to finish with the batches that hold that room (it will:
   * they are in flight, and their acks bring the caller back).
   */
  slot(size: number): Uint8Array | null {
    if (size > this.capacity) throw new RangeError(`a batch of ${size} bytes cannot cross a lane of ${this.capacity}`);
    const inUse = (this.written - Atomics.load(this.consumed, CONSUMED)) >>> 0;
    let start = (this.written >>> 0) % this.capacity;
    let padding = 0;
    if (start + size > this.capacity) {
      padding = this.capacity - start;
      start = 0;
    }
    if (inUse + padding + size > this.capacity) return null;
    this.reserved = { start, padding };
    return this.data.subarray(start, start + size);
  }

  /** The slot last handed out now holds a batch of its full size: where the worker finds it. */
  commit(length: number): LaneSpan {
    if (!this.reserved) throw new Error('commit without a slot');
    const { start, padding } = this.reserved;
    this.reserved = null;
    this.written = (this.written + padding + length) | 0;
    return { at: start, length, end: this.written };
  }
}

/** The worker's side: reads spans in place and says when it is done with them. */
export class OutputLaneReader {
  private readonly data: Uint8Array;
  private readonly consumed: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.consumed = new Int32Array(buffer, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
    this.data = new Uint8Array(buffer, HEADER_BYTES);
  }

  /** The batch's bytes, valid until done(span). */
  view(span: LaneSpan): Uint8Array {
    return this.data.subarray(span.at, span.at + span.length);
  }

  /** The bytes of `span` are copied out: the writer may reuse its room. Call it before acking them. */
  done(span: LaneSpan): void {
    Atomics.store(this.consumed, CONSUMED, span.end);
  }
}
