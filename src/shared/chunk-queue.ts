/**
 * Output read from a PTY and not yet handed to the parser, kept as the chunks
 * it arrived in. Copying happens once, when a batch is taken, into a fresh
 * buffer the caller can transfer to another thread without detaching the
 * chunks still queued.
 */
export class ChunkQueue {
  private chunks: Uint8Array[] = [];
  private total = 0;

  get bytes(): number {
    return this.total;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.total += chunk.length;
  }

  /** Up to `limit` bytes from the front, as one fresh buffer. */
  take(limit: number): Uint8Array {
    const size = Math.min(limit, this.total);
    const batch = new Uint8Array(size);
    let offset = 0;
    while (offset < size) {
      const chunk = this.chunks[0];
      const count = Math.min(chunk.length, size - offset);
      batch.set(count === chunk.length ? chunk : chunk.subarray(0, count), offset);
      offset += count;
      if (count === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(count);
    }
    this.total -= size;
    return batch;
  }
}
