/**
 * Checks that a preset's program exists before a pane is spawned for it: a PTY
 * child that cannot exec just exits with status 1 and a blank screen, which
 * tells the user (or the orchestrator) nothing.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { logIgnored } from '../../node/patterm-log.js';

export class ProgramNotFoundError extends Error {
  override readonly name = 'ProgramNotFoundError';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Throws ProgramNotFoundError naming the program and where it was looked for. */
export function assertProgramExists(program: string, cwd: string, pathVariable: string | undefined): void {
  if (program.includes('/')) {
    const full = isAbsolute(program) ? program : resolve(cwd, program);
    if (!executable(full)) throw new ProgramNotFoundError(`program ${JSON.stringify(program)} does not exist or is not executable (looked at ${full})`);
    return;
  }
  const dirs = (pathVariable ?? '').split(delimiter).filter((dir) => dir !== '');
  if (dirs.some((dir) => executable(join(dir, program)))) return;
  throw new ProgramNotFoundError(`program ${JSON.stringify(program)} was not found on PATH (${dirs.join(delimiter) || 'PATH is empty'}); install it or put its full path in the preset's argv`);
}

/** Throws ProgramNotFoundError when the pane's working directory is missing: the PTY child would only print "chdir(2) failed." and exit 1. */
export function assertWorkingDir(dir: string, given: string | undefined): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (error) {
    // missing or unreadable: reported below
    logIgnored(`checking working_dir ${dir}`, error);
  }
  if (!isDir) throw new ProgramNotFoundError(`working_dir ${JSON.stringify(given ?? '.')} is not an existing directory (resolved to ${dir})`);
}
