/**
 * Waits with a deadline (performance.now() time), as run_command and
 * wait_for_command wait: the caller gets what it waited for, or null at the
 * deadline; a cancelled call stops waiting at once.
 */
import type { Emitter } from '../../shared/events.js';

/** Resolves with `promise`'s value, or null once `deadline` passes; rejects when `signal` aborts. */
export function within<T>(promise: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T | null> {
  return new Promise<T | null>((resolve, reject) => {
    const timer = setTimeout(() => done(null), Math.max(0, deadline - performance.now()));
    const onAbort = () => {
      cleanup();
      reject(new Error('the call was cancelled'));
    };
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const done = (value: T | null) => {
      cleanup();
      resolve(value);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    void promise.then(done);
  });
}

/** Resolves once `condition` holds (checked now and at each `changed`) or `deadline` passes. */
export async function until(changed: Emitter<void>['event'], condition: () => boolean, deadline: number, signal?: AbortSignal): Promise<void> {
  if (condition()) return;
  let subscription: { dispose(): void } | undefined;
  const reached = new Promise<void>((resolve) => {
    subscription = changed(() => condition() && resolve());
  });
  try {
    await within(reached, deadline, signal);
  } finally {
    subscription?.dispose();
  }
}
