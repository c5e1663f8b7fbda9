/**
 * Runs async jobs one at a time per key, in arrival order. Used wherever a
 * read-check-write must not interleave with another one for the same thing
 * (a scratchpad file, the input box of one pane).
 */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, job: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(job, job);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // Forget the key once its queue drains, so the map does not grow forever.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
