/**
 * Buffers the PTY host lends a pane's worker and gets back. A skim
 * (skim-plan.ts) sends the worker what its output ring keeps of the skimmed
 * front, up to a ring's worth (1 MiB), several times a second while a flood
 * lasts. A fresh ArrayBuffer each time is external memory that V8 gives back
 * only at a later GC, in the worker that received it, so in an unwatched flood
 * those buffers piled up in the worker (figures: docs/perf-notes.md). The worker
 * copies the bytes into its ring and transfers the buffer back, so one or two
 * buffers go round instead.
 */

/**
 * A flood skims several times a second, each skim handing the buffer back
 * within milliseconds; a pane that has not skimmed for this long has stopped
 * flooding, and keeps no buffer.
 */
const KEEP_SPARE_MS = 1000;

export class LentBuffers {
  private spare: ArrayBuffer | null = null;
  private dropTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * A view of exactly `size` bytes. A new buffer is sized to the next power
   * of two: a flood's skims vary in size, and one buffer
   * then serves the ones after it, at most twice the bytes it carries.
   */
  take(size: number): Uint8Array {
    const spare = this.spare;
    if (spare && spare.byteLength >= size) {
      this.spare = null;
      return new Uint8Array(spare, 0, size);
    }
    return new Uint8Array(new ArrayBuffer(nextPowerOfTwo(size)), 0, size);
  }

  /** A lent buffer came back; the next take() reuses it. One spare at most: another one is left to the GC. */
  give(buffer: ArrayBuffer): void {
    this.spare = buffer;
    if (this.dropTimer) this.dropTimer.refresh();
    else this.dropTimer = setTimeout(() => this.drop(), KEEP_SPARE_MS).unref();
  }

  dispose(): void {
    if (this.dropTimer) clearTimeout(this.dropTimer);
    this.drop();
  }

  private drop(): void {
    this.spare = null;
    this.dropTimer = null;
  }
}

function nextPowerOfTwo(size: number): number {
  return size <= 1 ? 1 : 2 ** Math.ceil(Math.log2(size));
}
