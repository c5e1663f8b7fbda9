/**
 * A fixed-capacity byte ring addressed by monotonic offsets: offset N is the
 * N-th byte the child ever wrote. Readers ask for "everything since N" and are
 * told how many bytes fell off the back, so a slow reader never silently misses output.
 */
export interface RingRead {
  bytes: Uint8Array;
  startOffset: number;
  endOffset: number;
  droppedBytes: number;
}

export class ByteRing {
  private readonly buffer: Uint8Array;
  private head = 0; // total bytes ever appended
  /** Offsets below this were counted (skip()) but never written: they read as dropped, not as stale bytes. */
  private floor = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`ByteRing capacity must be a positive integer, received ${capacity}`);
    }
    this.buffer = new Uint8Array(capacity);
  }

  get headOffset(): number {
    return this.head;
  }

  /** The oldest offset still held. */
  get tailOffset(): number {
    return Math.max(this.floor, this.head - this.capacity);
  }

  /** Counts `bytes` of output the ring was not given (the PTY host kept only what fits, see forwardSkim): they read as dropped. */
  skip(bytes: number): void {
    if (bytes <= 0) return;
    this.head += bytes;
    this.floor = this.head;
  }

  /** A ring holding exactly `read`'s bytes at their offsets: a copy that outlives the ring it was read from. */
  static holding(read: Pick<RingRead, 'bytes' | 'startOffset'>): ByteRing {
    const ring = new ByteRing(Math.max(1, read.bytes.length));
    ring.head = read.startOffset;
    ring.append(read.bytes);
    return ring;
  }

  append(chunk: Uint8Array): void {
    let data = chunk;
    if (data.length >= this.capacity) {
      // Only the last `capacity` bytes can survive; skip copying the rest.
      this.head += data.length - this.capacity;
      data = data.subarray(data.length - this.capacity);
    }
    const start = this.head % this.capacity;
    const firstPart = Math.min(data.length, this.capacity - start);
    this.buffer.set(data.subarray(0, firstPart), start);
    if (firstPart < data.length) this.buffer.set(data.subarray(firstPart), 0);
    this.head += data.length;
  }

  /** Copies bytes from `fromOffset` (clamped to what is held) up to `limit` bytes. */
  read(fromOffset: number, limit = Infinity): RingRead {
    const requested = Math.max(0, Math.floor(fromOffset));
    const start = Math.min(Math.max(requested, this.tailOffset), this.head);
    const droppedBytes = Math.max(0, Math.min(this.tailOffset, this.head) - requested);
    const end = Math.min(this.head, start + Math.max(0, limit));
    const length = end - start;
    const out = new Uint8Array(length);
    const physical = start % this.capacity;
    const firstPart = Math.min(length, this.capacity - physical);
    out.set(this.buffer.subarray(physical, physical + firstPart), 0);
    if (firstPart < length) out.set(this.buffer.subarray(0, length - firstPart), firstPart);
    return { bytes: out, startOffset: start, endOffset: end, droppedBytes };
  }
}
