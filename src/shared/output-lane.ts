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
 * Each batch is a frame: an 8-byte header (length, flags) and its bytes. The
 * PTY host writes a frame, publishes the lane's write position, and either
 * announces the frame with a message (carrying what its scan found) or leaves
 * it for the worker to drain when it next wakes (a deferred frame, which has
 * no scanned events: see pty-host-service.ts). The worker reads frames in
 * place, in order, and once a frame's bytes are copied (into its output ring
 * and the emulator), stores its end in the header. A frame never wraps: when
 * it does not fit before the end, a wrap marker is left there and it starts
 * at the front. Positions count bytes written, modulo 2^32.
 */

/**
 * Room for the batches in flight (pty-process.ts allows two of 64 KiB, and a
 * small echo on top) several times over, with room to wrap. 512 KiB per pane
 * is 10 MiB for twenty panes, touched only as far as output has gone.
 */
export const OUTPUT_LANE_BYTES = 512 * 1024;
/** The header: where the worker is done, where the host has written to, and whether the worker wants every frame announced. */
const HEADER_BYTES = 16;
const CONSUMED = 0;
const WRITTEN = 1;
const EAGER = 2;
/** A frame's header: its byte length, then its flags. Frames start 8-aligned, so both are Int32 reads. */
const FRAME_HEADER_BYTES = 8;
/** In a frame header's length: the rest of the lane is unused, the next frame is at the front. */
const WRAP_MARKER = -1;

/** The frame's message is on its way (it carries the scan's events); a drain stops at it. */
export const FRAME_ANNOUNCED = 1;
/** The PTY host's scanner was between sequences at the frame's end (ScannedBatch.atGround). */
export const FRAME_AT_GROUND = 2;

/** Where one batch lies in the lane; `end` is the position the worker reports once it is done with it. */
export interface LaneSpan {
  at: number;
  length: number;
  end: number;
}

export interface LaneFrame {
  span: LaneSpan;
  flags: number;
}

/** `bytes` must be a power of two, so that positions modulo 2^32 map onto the lane the same way across their wrap. */
export function allocateOutputLane(bytes = OUTPUT_LANE_BYTES): SharedArrayBuffer {
  if (bytes < FRAME_HEADER_BYTES || (bytes & (bytes - 1)) !== 0) throw new RangeError(`an output lane's size must be a power of two of at least ${FRAME_HEADER_BYTES} (received ${bytes})`);
  return new SharedArrayBuffer(HEADER_BYTES + bytes);
}

/** Whether the worker has yet to take in bytes the host wrote: a copy of its screen made before them (grid-mirror.ts) is behind. */
export function laneHasUnread(buffer: SharedArrayBuffer): boolean {
  const header = new Int32Array(buffer, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
  return Atomics.load(header, WRITTEN) !== Atomics.load(header, CONSUMED);
}

const frameBytes = (length: number) => (FRAME_HEADER_BYTES + length + 7) & ~7;

/** The PTY host's side: hands out room to write batches into, and publishes them. */
export class OutputLaneWriter {
  private readonly data: Uint8Array;
  private readonly words: Int32Array;
  private readonly header: Int32Array;
  /** Position after the last frame, modulo 2^32. */
  private written = 0;
  private reserved: { start: number; padding: number; size: number } | null = null;

  constructor(buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
    this.data = new Uint8Array(buffer, HEADER_BYTES);
    this.words = new Int32Array(buffer, HEADER_BYTES);
  }

  get capacity(): number {
    return this.data.length;
  }

  /** The worker asks for every frame to be announced (someone watches or listens to the pane). */
  get eager(): boolean {
    return Atomics.load(this.header, EAGER) !== 0;
  }

  /**
   * A view of `size` bytes to write the next batch into, or null while the
   * worker has yet to finish with the frames that hold that room (it will:
   * they are announced or drained, and their acks bring the caller back).
   */
  slot(size: number): Uint8Array | null {
    const needed = frameBytes(size);
    if (needed > this.capacity) throw new RangeError(`a batch of ${size} bytes cannot cross a lane of ${this.capacity}`);
    const inUse = (this.written - Atomics.load(this.header, CONSUMED)) >>> 0;
    let start = (this.written >>> 0) % this.capacity;
    let padding = 0;
    if (start + needed > this.capacity) {
      padding = this.capacity - start;
      start = 0;
    }
    if (inUse + padding + needed > this.capacity) return null;
    this.reserved = { start, padding, size };
    const at = start + FRAME_HEADER_BYTES;
    return this.data.subarray(at, at + size);
  }

  /** The slot last handed out now holds a batch of its full size: publishes it as a frame with `flags`. */
  commit(flags: number): LaneSpan {
    if (!this.reserved) throw new Error('commit without a slot');
    const { start, padding, size } = this.reserved;
    this.reserved = null;
    if (padding > 0) this.words[((this.written >>> 0) % this.capacity) >> 2] = WRAP_MARKER;
    this.words[start >> 2] = size;
    this.words[(start >> 2) + 1] = flags;
    this.written = (this.written + padding + frameBytes(size)) | 0;
    // After the plain writes above: a reader that loads this position sees them.
    Atomics.store(this.header, WRITTEN, this.written);
    return { at: start + FRAME_HEADER_BYTES, length: size, end: this.written };
  }
}

/** The worker's side: reads frames in place, in order, and says when it is done with them. */
export class OutputLaneReader {
  private readonly data: Uint8Array;
  private readonly words: Int32Array;
  private readonly header: Int32Array;
  /** Position after the last frame taken with next(), modulo 2^32. */
  private position = 0;

  constructor(buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
    this.data = new Uint8Array(buffer, HEADER_BYTES);
    this.words = new Int32Array(buffer, HEADER_BYTES);
  }

  /** The next frame the host published, without taking it; null when there is none. */
  peek(): LaneFrame | null {
    if (!this.hasUnread()) return null;
    let position = this.position;
    let at = (position >>> 0) % this.data.length;
    if (this.words[at >> 2] === WRAP_MARKER) {
      position = (position + this.data.length - at) | 0;
      at = 0;
    }
    const length = this.words[at >> 2];
    const flags = this.words[(at >> 2) + 1];
    return { span: { at: at + FRAME_HEADER_BYTES, length, end: (position + frameBytes(length)) | 0 }, flags };
  }

  /** Whether the host has published frames this reader has not taken yet. */
  hasUnread(): boolean {
    return this.position !== Atomics.load(this.header, WRITTEN);
  }

  /** Takes the frame peek() returned: the next peek looks past it. */
  take(frame: LaneFrame): void {
    this.position = frame.span.end;
  }

  /** The batch's bytes, valid until done(span). */
  view(span: LaneSpan): Uint8Array {
    return this.data.subarray(span.at, span.at + span.length);
  }

  /** The bytes of `span` are copied out: the writer may reuse its room. Call it before acking them. */
  done(span: LaneSpan): void {
    Atomics.store(this.header, CONSUMED, span.end);
  }

  /** Whether the host should announce every frame rather than leave some to be drained. */
  setEager(eager: boolean): void {
    Atomics.store(this.header, EAGER, eager ? 1 : 0);
  }
}
