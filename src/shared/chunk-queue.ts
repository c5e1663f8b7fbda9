/**
 * Output read from a PTY and not yet handed to the parser, kept as the chunks
 * it arrived in. Copying happens once, when a batch is taken, into a fresh
 * buffer the caller can transfer to another thread without detaching the
 * chunks still queued.
 */
const LF = 0x0a;

export class ChunkQueue {
  private chunks: Uint8Array[] = [];
  private total = 0;
  private everPushed = 0;

  get bytes(): number {
    return this.total;
  }

  /** Bytes pushed over the queue's life: how a caller tells that the backlog has moved on. */
  get pushedTotal(): number {
    return this.everPushed;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.total += chunk.length;
    this.everPushed += chunk.length;
  }

  /** Every queued byte as one view, still queued: the chunks are merged into one (take() still copies). */
  peekAll(): Uint8Array {
    if (this.chunks.length === 0) return new Uint8Array(0);
    if (this.chunks.length > 1) {
      const merged = new Uint8Array(this.total);
      let offset = 0;
      for (const chunk of this.chunks) {
        merged.set(chunk, offset);
        offset += chunk.length;
      }
      this.chunks = [merged];
    }
    return this.chunks[0];
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
    const size = Math.min(limit, this.total);
    if (size === this.total) return size;
    const lastLf = this.lastIndexOfWithin(LF, size);
    return lastLf >= size / 2 ? lastLf + 1 : size;
  }

  /** The last `byte` among the first `size` queued bytes, or -1. */
  private lastIndexOfWithin(byte: number, size: number): number {
    let start = 0;
    let index = 0;
    while (index < this.chunks.length && start + this.chunks[index].length < size) start += this.chunks[index++].length;
    for (; index >= 0; index--) {
      const chunk = this.chunks[index];
      const found = chunk.lastIndexOf(byte, Math.min(chunk.length, size - start) - 1);
      if (found !== -1) return start + found;
      if (index > 0) start -= this.chunks[index - 1].length;
    }
    return -1;
  }

  /**
   * Up to `limit` bytes from the front, as a view of the first chunk when it
   * holds them all (after peekAll() it holds everything), else as take()'s
   * copy. A view shares its buffer with what stays queued: not transferable.
   */
  takeView(limit: number): Uint8Array {
    const size = Math.min(limit, this.total);
    const first = this.chunks[0];
    if (!first || first.length < size) return this.take(size);
    if (first.length === size) this.chunks.shift();
    else this.chunks[0] = first.subarray(size);
    this.total -= size;
    return first.subarray(0, size);
  }

  /** Up to `limit` bytes from the front, as one fresh buffer. */
  take(limit: number): Uint8Array {
    const batch = new Uint8Array(Math.min(limit, this.total));
    this.takeInto(batch);
    return batch;
  }

  /** Fills `target` from the front (it must not be longer than the queue). */
  takeInto(target: Uint8Array): void {
    const size = target.length;
    if (size > this.total) throw new RangeError(`takeInto: ${size} bytes asked for, ${this.total} queued`);
    let offset = 0;
    while (offset < size) {
      const chunk = this.chunks[0];
      const count = Math.min(chunk.length, size - offset);
      target.set(count === chunk.length ? chunk : chunk.subarray(0, count), offset);
      offset += count;
      if (count === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(count);
    }
    this.total -= size;
  }
}
