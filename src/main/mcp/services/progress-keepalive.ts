/**
 * Keeps a long tool call alive in clients that time calls out: while the work
 * runs, MCP `notifications/progress` go to the caller every interval, when its
 * request carried `_meta.progressToken`. opencode (the MCP SDK's default)
 * cuts a call off after 60 s unless progress resets the clock.
 */
import { logIgnored } from '../../../node/patterm-log.js';

/**
 * Well under the MCP SDK's 60 s default request timeout, which each
 * notification resets: a notification delayed by a loaded machine still
 * leaves several more inside one window.
 */
export const PROGRESS_INTERVAL_MS = 10_000;

export interface ProgressUpdate {
  /** Grows with every notification (milliseconds elapsed). */
  progress: number;
  /** The most the work can take, in the same unit, when known. */
  total?: number;
  message?: string;
}

/** Sends one notification for the caller's progressToken; null when the caller gave none. */
export type SendProgress = (update: ProgressUpdate) => Promise<void>;

export interface ProgressReporter {
  /**
   * Resolves as `work` does, sending a notification every interval until it
   * settles. `describe(elapsedMs)` is the message; `totalMs` the longest the
   * work can last, if known. Without a progressToken it only awaits `work`.
   */
  during<T>(work: Promise<T>, describe: (elapsedMs: number) => string, totalMs?: number): Promise<T>;
}

export function progressReporter(send: SendProgress | null, label: string, intervalMs = PROGRESS_INTERVAL_MS): ProgressReporter {
  return {
    async during(work, describe, totalMs) {
      if (send === null) return work;
      const started = performance.now();
      let failed = false;
      const timer = setInterval(() => {
        const elapsed = Math.round(performance.now() - started);
        send({ progress: elapsed, total: totalMs, message: describe(elapsed) }).catch((error: unknown) => {
          // The caller went away or the socket broke: the call's own reply will fail the same way.
          if (!failed) logIgnored(`MCP ${label}: a progress notification; no more will be sent`, error);
          failed = true;
          clearInterval(timer);
        });
      }, intervalMs);
      try {
        return await work;
      } finally {
        clearInterval(timer);
      }
    },
  };
}
