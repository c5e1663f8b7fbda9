/**
 * A lock between processes: another patterm in the same project (each
 * terminal runs its own) shares the scratchpad files, and its read-modify-write must not interleave
 * with ours, or appends are lost. The lock is a file created with O_EXCL that
 * names its holder. The holder touches it while its job runs, so a lock left
 * untouched for the stale age was left by a process that died or is frozen;
 * one whose holder is no longer running on this machine is taken at once.
 */
import { readlinkSync } from 'node:fs';
import { mkdir, open, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { ignoreError, log, logIgnored, warnError } from '../../node/patterm-log.js';

/** A write holds its lock for milliseconds, and a holder touches it every fifth of this. */
const STALE_AFTER_MS = 10_000;
/** How long a write waits for a live holder before it reports the scratchpad busy. */
const GIVE_UP_AFTER_MS = 15_000;
/** Polling, since there is no cross-process wake-up: short next to a human's wait, long next to a write. */
const RETRY_MS = 10;
/**
 * Whose pids a lock's pid can be checked against: a container with its own pid
 * namespace (distrobox, toolbox) may share the hostname and the data directory.
 */
const MACHINE = `${hostname()} ${(() => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch (error) {
    logIgnored('reading this pid namespace; locks name the host alone', error);
    return '';
  }
})()}`;

const OwnerSchema = v.object({ pid: v.pipe(v.number(), v.integer(), v.minValue(1)), machine: v.string() });

/** One lock file as read: a lock is only ever removed if it is still exactly this one. */
interface Seen {
  ino: number;
  mtimeMs: number;
  text: string;
}

export interface FileLockOptions {
  /** How long a lock may go untouched before it counts as abandoned (tests shorten it). */
  staleAfterMs?: number;
}

/** The lock could not be taken; errors from the job itself pass through unchanged. */
export class FileLockError extends Error {
  override readonly name = 'FileLockError';
}

export async function withFileLock<T>(lockPath: string, job: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  let release: () => Promise<void>;
  try {
    release = await acquire(lockPath, staleAfterMs);
  } catch (error) {
    throw error instanceof FileLockError ? error : new FileLockError(`could not create ${lockPath}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return await job();
  } finally {
    // A lock we fail to remove goes stale and is taken over; the job's own outcome matters more.
    await release().catch(ignoreError('releasing a scratchpad lock'));
  }
}

async function acquire(lockPath: string, staleAfterMs: number): Promise<() => Promise<void>> {
  // Longer than the stale age, so a waiter outlasts a dead holder's lock before it gives up.
  const giveUpAfterMs = Math.max(GIVE_UP_AFTER_MS, staleAfterMs * 1.5);
  const started = Date.now();
  for (;;) {
    let handle: FileHandle;
    try {
      handle = await open(lockPath, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
        continue;
      }
      if (code !== 'EEXIST') throw error;
      const seen = await look(lockPath);
      if (!seen || (abandoned(seen, staleAfterMs) && (await removeIfStill(lockPath, seen, staleAfterMs)))) continue;
      if (Date.now() - started > giveUpAfterMs) throw new FileLockError(`${lockPath} has been held by another process for over ${giveUpAfterMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      continue;
    }
    return hold(lockPath, handle, staleAfterMs);
  }
}

/** Keeps a lock we created fresh until the returned release, which removes it only if it is still ours. */
async function hold(lockPath: string, handle: FileHandle, staleAfterMs: number): Promise<() => Promise<void>> {
  // The owner only speeds up taking over from a dead holder: a lock that could not be written to is still a lock.
  await handle.writeFile(JSON.stringify({ pid: process.pid, machine: MACHINE })).catch(ignoreError(`writing the owner of lock ${lockPath}`));
  const ino = await handle.stat().then((info) => info.ino, ignoreError(`reading lock ${lockPath}'s inode`, -1));
  let touched: Promise<unknown> = Promise.resolve();
  const heartbeat = setInterval(() => (touched = handle.utimes(new Date(), new Date()).catch(warnError(`refreshing lock ${lockPath}; another patterm may take it as stale and write at the same time`))), staleAfterMs / 5).unref();
  return async () => {
    clearInterval(heartbeat);
    await touched;
    try {
      // Our handle keeps the inode alive, so the same inode number is our lock; a different one is a successor's.
      const seen = await look(lockPath);
      if (seen?.ino === ino) await removeIfStill(lockPath, seen, staleAfterMs);
    } finally {
      await handle.close();
    }
  };
}

function abandoned(seen: Seen, staleAfterMs: number): boolean {
  if (Date.now() - seen.mtimeMs > staleAfterMs) return true;
  let owner;
  try {
    owner = v.safeParse(OwnerSchema, JSON.parse(seen.text));
  } catch (error) {
    logIgnored("reading a scratchpad lock's owner", error);
    return false; // empty while its creator writes it
  }
  if (!owner.success || owner.output.machine !== MACHINE) return false;
  try {
    process.kill(owner.output.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * There is no "unlink if it is still this file": between reading a lock and
 * removing it, another process may remove it and create a fresh one. So a
 * remover first creates a claim named after the lock it read (O_EXCL: one
 * claimant per lock), and under it checks the lock is unchanged. Everyone who
 * removes a lock, holder or taker, goes through here. True when it removed it.
 */
async function removeIfStill(lockPath: string, seen: Seen, staleAfterMs: number): Promise<boolean> {
  const claim = `${lockPath}.${seen.ino}-${seen.mtimeMs}.claim`;
  try {
    await writeFile(claim, '', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Someone else is removing it; a claim this old is from a claimant that died in those few milliseconds.
    const age = await stat(claim).then((info) => Date.now() - info.mtimeMs, ignoreError(`reading the age of claim ${claim}`, 0));
    if (age > staleAfterMs) await unlink(claim).catch(ignoreError(`removing the stale claim ${claim}`));
    return false;
  }
  try {
    const now = await look(lockPath);
    if (!now || now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs || now.text !== seen.text) return false;
    await unlink(lockPath);
    return true;
  } finally {
    await unlink(claim).catch(ignoreError(`removing the claim ${claim}`));
  }
}

/** The lock's identity and content, read through one handle so they belong together; null once it is gone. */
async function look(lockPath: string): Promise<Seen | null> {
  const handle = await open(lockPath, 'r').catch(ignoreError(`opening lock ${lockPath}`, null));
  if (!handle) return null;
  try {
    const { ino, mtimeMs } = await handle.stat();
    return { ino, mtimeMs, text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}
