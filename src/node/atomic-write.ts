/**
 * Replaces a file so that readers (and a crash at any moment) see either the
 * old content or the new, never a torn mix: write a temp file in the same
 * directory, fsync it, then rename it over the target.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ignoreError } from './patterm-log.js';

/** Error codes that mean "no room": the caller gets a disk-full error it can act on, not a generic I/O one. */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export class DiskFullError extends Error {
  override readonly name = 'DiskFullError';
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`no space left to write ${path} (${code}); the previous content is unchanged`);
  }
}

export function isNoSpaceError(error: unknown): boolean {
  return NO_SPACE_CODES.has((error as NodeJS.ErrnoException)?.code ?? '');
}

/** `mode` is the new file's (0600 for one that holds a secret); the umask may narrow it further. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  // Dot-prefixed so directory listings of *.md never show a half-written temp file.
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(ignoreError(`removing the partial write ${temp}`));
    if (isNoSpaceError(error)) throw new DiskFullError(path, (error as NodeJS.ErrnoException).code!);
    throw error;
  }
}
