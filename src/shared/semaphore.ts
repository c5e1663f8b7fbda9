/**
 * A counting semaphore that hands its slots over in call order: at most
 * `limit` holders at once. Each holder gets its own release function, which
 * frees the slot once however often it is called, so a release wired to
 * several endings (a reply, an exit, a timeout) cannot free two slots.
 */
export type Release = () => void;

export class Semaphore {
  private holders = 0;
  private readonly queue: Array<(release: Release) => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Semaphore limit must be a positive integer (received ${limit})`);
  }

  /** Slots held now. */
  get active(): number {
    return this.holders;
  }

  /** Callers queued for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  acquire(): Promise<Release> {
    if (this.holders < this.limit) {
      this.holders++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next caller: the count never dips, so
      // a caller arriving meanwhile cannot jump the queue.
      if (next) next(this.releaser());
      else this.holders--;
    };
  }
}
