/** Minimal typed events and disposables, in the style of VS Code's base/common. */
import { reportIgnoredError } from './error-sink.js';

export interface Disposable {
  dispose(): void;
}

/** As VS Code's EmitterOptions: lets a source do work only while someone listens. */
export interface EmitterOptions {
  onFirstListenerAdded?: () => void;
  onLastListenerRemoved?: () => void;
}

/** Subscribing to an Emitter: returns what ends the subscription. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event: Event<T> = (listener) => {
    const wrapped = (value: T) => listener(value); // one entry per subscription, even for the same function twice
    this.listeners.add(wrapped);
    if (this.listeners.size === 1) this.options.onFirstListenerAdded?.();
    return {
      dispose: () => {
        if (this.listeners.delete(wrapped) && this.listeners.size === 0) this.options.onLastListenerRemoved?.();
      },
    };
  };

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // One broken listener must not stop the others (or the pane that fired).
        reportIgnoredError('an event listener threw; what it was to do is not done', error, 'warn');
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
      } catch (error) {
        // Keep disposing the rest.
        reportIgnoredError('a dispose threw', error);
      }
    }
    this.items.clear();
  }
}
