/**
 * Synchronous cleanups that must run even when patterm exits before their
 * owner ends on its own: an agent's private MCP config file holds its
 * identity token, and shutdown can call process.exit before a killed pane's
 * exit is reported. One 'exit' listener serves them all, so twenty agents do
 * not trip Node's listener-leak warning (it fires past ten).
 */
import { rmSync, unlinkSync } from 'node:fs';
import { removeAfterDeath, type LeftoverKind } from './leftover-paths.js';
import { logDegraded } from '../../node/patterm-log.js';

const pending = new Set<() => void>();
let hooked = false;

function runAll(): void {
  for (const cleanup of [...pending]) {
    pending.delete(cleanup);
    try {
      cleanup();
    } catch (error) {
      // the process is exiting: one failed cleanup must not stop the others
      logDegraded('an exit clean-up; what it removes may be left behind', error);
    }
  }
}

/** Runs `cleanup` at process exit unless the returned function is called first. */
export function cleanupAtExit(cleanup: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', runAll);
  }
  pending.add(cleanup);
  return () => {
    pending.delete(cleanup);
  };
}

/**
 * Removes `path` (a directory tree or one file) when patterm exits, and, through
 * the orphan watchdog, when it is killed outright. Call the returned function
 * once the path has been removed by its owner.
 */
export function removeAtExit(path: string, kind: LeftoverKind): () => void {
  const forgetAtExit = cleanupAtExit(() => {
    if (kind === 'tree') rmSync(path, { recursive: true, force: true });
    else unlinkSync(path);
  });
  const forgetAfterDeath = removeAfterDeath(path, kind);
  return () => {
    forgetAtExit();
    forgetAfterDeath();
  };
}
