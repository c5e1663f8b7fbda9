/**
 * Output read from a PTY and not yet handed to the parser. Each chunk pushed
 * is copied at once into one contiguous buffer owned by the queue, so the
 * reader's buffers die young: a flood held in the PTY host (flood-hold.ts)
 * kept thousands of small reads alive long enough to reach V8's old
 * generation, where they stayed, dead, until a full collection, and a skim
 * merged them into one more copy of the backlog. Batches are copied out into
 * buffers the caller owns (takeInto, take); views (peekAll, takeView) are
 * valid only until the next push.
 */
const LF = 0x0a;

/** The buffer's size at the first push: a prompt or an echo never grows it. */
const INITIAL_CAPACITY_BYTES = 16 * 1024;
/**
 * A drained queue always keeps a buffer up to this size for the next output.
 * A larger one (grown by a flood) is kept only while it is used: dropped at a
 * drain after a fill that used under a quarter of it, so a flood that drains
 * between bursts does not grow a new buffer each time, and a pane whose flood
 * has ended does not keep its memory.
 */
const RETAINED_CAPACITY_BYTES = 64 * 1024;
/** Growth factor when the queued bytes outgrow the buffer: less than 2, since the whole buffer ends up resident. */
const GROWTH = 1.5;

/** The index of the last `byte` in `bytes`, or -1. */
export type LastIndexOf = (bytes: Uint8Array, byte: number) => number;

export class ChunkQueue {
  private store: Uint8Array | null = null;
  /** The queued bytes are store[head, tail). */
  private head = 0;
  private tail = 0;
  private everPushed = 0;
  /** The most bytes queued since the last drain. */
  private fillPeak = 0;

  /**
   * `lastIndexOf`: how linesSize finds a batch's last LF. Uint8Array's own
   * steps through the bytes one by one, and output with few newlines (a
   * full-screen program's redraws) has it search half of every batch; Node's
   * Buffer searches with memrchr, which the PTY host passes in (this module
   * runs without Node).
   */
  constructor(private readonly lastIndexOf: LastIndexOf = (bytes, byte) => bytes.lastIndexOf(byte)) {}

  get bytes(): number {
    return this.tail - this.head;
  }

  /** Bytes pushed over the queue's life: how a caller tells that the backlog has moved on. */
  get pushedTotal(): number {
    return this.everPushed;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const store = this.roomFor(chunk.length);
    store.set(chunk, this.tail);
    this.tail += chunk.length;
    this.everPushed += chunk.length;
    this.fillPeak = Math.max(this.fillPeak, this.tail - this.head);
  }

  /**
   * The buffer, with room for `size` more bytes after the tail. Moving the
   * queued bytes to the front is done only when that frees a quarter of the
   * buffer or more, so each byte is moved a bounded number of times.
   */
  private roomFor(size: number): Uint8Array {
    const queued = this.bytes;
    const store = this.store;
    if (store && this.tail + size <= store.length) return store;
    if (store && queued + size <= store.length && this.head >= store.length / 4) {
      store.copyWithin(0, this.head, this.tail);
    } else {
      const grown = new Uint8Array(Math.max(INITIAL_CAPACITY_BYTES, Math.ceil((queued + size) * GROWTH)));
      if (store) grown.set(store.subarray(this.head, this.tail));
      this.store = grown;
    }
    this.head = 0;
    this.tail = queued;
    return this.store!;
  }

  /** Every queued byte as one view, still queued (valid until the next push; take() still copies). */
  peekAll(): Uint8Array {
    return this.store ? this.store.subarray(this.head, this.tail) : new Uint8Array(0);
  }

  /**
   * Like take(), but a batch cut short of the queue ends after its last LF
   * when that is in its second half: a flood's batches then end between
   * lines, where the stream is nearly always between sequences, which is
   * where a skim (skim-plan.ts) or a compaction may start.
   */
  takeLines(limit: number): Uint8Array {
    return this.take(this.linesSize(limit));
  }

  /** How many bytes takeLines(limit) would take. */
  linesSize(limit: number): number {
    const size = Math.min(limit, this.bytes);
    if (size === this.bytes) return size;
    const half = size >> 1;
    const lastLf = this.lastIndexOf(this.store!.subarray(this.head + half, this.head + size), LF);
    return lastLf === -1 ? size : half + lastLf + 1;
  }

  /**
   * Up to `limit` bytes from the front, as a view of the queue's buffer (valid
   * until the next push): not transferable, and to be copied by whoever keeps it.
   */
  takeView(limit: number): Uint8Array {
    const size = Math.min(limit, this.bytes);
    const view = this.peekAll().subarray(0, size);
    this.consume(size);
    return view;
  }

  /** Up to `limit` bytes from the front, as one fresh buffer. */
  take(limit: number): Uint8Array {
    const batch = new Uint8Array(Math.min(limit, this.bytes));
    this.takeInto(batch);
    return batch;
  }

  /** Fills `target` from the front (it must not be longer than the queue). */
  takeInto(target: Uint8Array): void {
    const size = target.length;
    if (size > this.bytes) throw new RangeError(`takeInto: ${size} bytes asked for, ${this.bytes} queued`);
    if (size === 0) return;
    target.set(this.store!.subarray(this.head, this.head + size));
    this.consume(size);
  }

  private consume(size: number): void {
    this.head += size;
    if (this.head < this.tail) return;
    // Drained: start over at the front (the views handed out keep a dropped buffer alive).
    this.head = this.tail = 0;
    if (this.store && this.store.length > RETAINED_CAPACITY_BYTES && this.fillPeak < this.store.length / 4) this.store = null;
    this.fillPeak = 0;
  }
}
