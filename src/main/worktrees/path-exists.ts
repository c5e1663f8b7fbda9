import { lstat, rmdir } from 'node:fs/promises';
import { logIgnored } from '../../node/patterm-log.js';

/** Whether anything (a file, a directory, a dangling symlink) is at `path`; errors other than "not there" are thrown. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}

/** Removes `dir` if it is an empty directory; one that holds anything stays. */
export async function removeIfEmpty(dir: string): Promise<void> {
  try {
    await rmdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') logIgnored(`removing the empty directory ${dir}`, error);
  }
}
