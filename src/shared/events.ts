/** Minimal typed events and disposables, in the style of VS Code's base/common. */
export interface Disposable {
  dispose(): void;
}

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One broken listener must not stop the others (or the pane that fired).
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();

  add<T extends Disposable>(item: T): T {
    this.items.add(item);
    return item;
  }

  dispose(): void {
    for (const item of this.items) {
      try {
        item.dispose();
      } catch {
        // Keep disposing the rest.
      }
    }
    this.items.clear();
  }
}
