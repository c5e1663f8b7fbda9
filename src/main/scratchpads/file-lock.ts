/**
 * A lock between processes: another patterm in the same project (spec §2)
 * shares the scratchpad files, and its read-modify-write must not interleave
 * with ours, or appends are lost. The lock is a file created with O_EXCL; one
 * left behind by a process that died is taken over once it is stale.
 */
import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A write holds its lock for milliseconds; a lock this old was left by a process that died. */
const STALE_AFTER_MS = 10_000;
/** Longer than STALE_AFTER_MS, so a waiter outlasts a dead holder's lock before it gives up. */
const GIVE_UP_AFTER_MS = 15_000;
/** Polling, since there is no cross-process wake-up: short next to a human's wait, long next to a write. */
const RETRY_MS = 10;

/** The lock could not be taken; errors from the job itself pass through unchanged. */
export class FileLockError extends Error {
  override readonly name = 'FileLockError';
}

export async function withFileLock<T>(lockPath: string, job: () => Promise<T>): Promise<T> {
  try {
    await acquire(lockPath);
  } catch (error) {
    throw error instanceof FileLockError ? error : new FileLockError(`could not create ${lockPath}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return await job();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await (await open(lockPath, 'wx', 0o600)).close();
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
        continue;
      }
      if (code !== 'EEXIST') throw error;
      const age = await stat(lockPath).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (age > STALE_AFTER_MS) await unlink(lockPath).catch(() => undefined);
      else if (Date.now() - started > GIVE_UP_AFTER_MS) throw new FileLockError(`${lockPath} has been held by another process for over ${GIVE_UP_AFTER_MS / 1000} s`);
      else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
