/**
 * Notices when the MCP socket's file goes away while patterm runs (a /tmp
 * cleaner, a stray rm). The listener keeps serving the unlinked inode, so open
 * connections carry on, but no new agent can reach it by path.
 *
 * A stat every couple of seconds rather than fs.watch: the socket lives in
 * /tmp or $XDG_RUNTIME_DIR, and an inotify watch there wakes patterm for every
 * file anyone touches in that directory, needs a watch descriptor, and is
 * unreliable on some filesystems. One lstat every 2 s off the main thread
 * costs nothing; the price is that an agent starting in those 2 s misses it.
 */
import { lstat } from 'node:fs/promises';
import type { Disposable } from '../../../shared/events.js';

export const SOCKET_CHECK_INTERVAL_MS = 2000;

/** What names one file: the path may point elsewhere later, this does not. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

export async function fileIdentity(path: string): Promise<FileIdentity> {
  const stats = await lstat(path, { bigint: true });
  return { dev: stats.dev, ino: stats.ino };
}

/**
 * 'missing': nothing is at the path. 'replaced': another file is there, which
 * patterm did not make and must not remove.
 */
export type SocketFileLoss = 'missing' | 'replaced';

export class SocketFileWatch implements Disposable {
  private readonly timer: NodeJS.Timeout;
  /** A check (and the recovery it starts) runs to its end before the next one. */
  private busy = false;

  /**
   * @param onLoss called when the file at `path` is no longer `expected`; it
   *   resolves with the identity of the file it put back, or null if it did not.
   */
  constructor(
    private readonly path: string,
    private expected: FileIdentity,
    private readonly onLoss: (loss: SocketFileLoss) => Promise<FileIdentity | null>,
    intervalMs = SOCKET_CHECK_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.check(), intervalMs);
    // Watching must never keep patterm alive.
    this.timer.unref();
  }

  private async check(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const loss = await this.loss();
      if (!loss) return;
      const restored = await this.onLoss(loss);
      if (restored) this.expected = restored;
    } finally {
      this.busy = false;
    }
  }

  private async loss(): Promise<SocketFileLoss | null> {
    try {
      const now = await fileIdentity(this.path);
      return now.dev === this.expected.dev && now.ino === this.expected.ino ? null : 'replaced';
    } catch (error) {
      // EACCES and the like say nothing about the file being gone: check again later.
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : null;
    }
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
