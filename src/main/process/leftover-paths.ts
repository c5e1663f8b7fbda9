/**
 * Files patterm creates that must not outlive it even when it is SIGKILLed
 * (no 'exit' handler runs then): the MCP socket, and each agent's private MCP
 * config directory, whose file holds that agent's identity token.
 *
 * The orphan watchdog removes them after patterm dies. It learns them as lines
 * on its stdin: "+<kind><path>" when patterm creates one, "-<kind><path>" when
 * patterm removed it itself, so the watchdog only ever removes what patterm made
 * and still owned. <kind> is "r" for a directory tree (rm -rf) or "f" for one
 * non-directory file (rm -f, which cannot take a directory).
 * "+p<pid>" / "-p<pid>" register an orphan patterm adopted (orphan-adoption.ts):
 * the watchdog SIGKILLs it and its descendants.
 */
import { isAbsolute, normalize } from 'node:path';
import type { Writable } from 'node:stream';
import { log, pattermLog, warnError } from '../../node/patterm-log.js';

export type LeftoverKind = 'tree' | 'file';

/** Entries ("r/path", "f/path") with how many registrations each has, to replay to a watchdog started late. */
const registered = new Map<string, number>();
let watchdog: Writable | null = null;

/**
 * A path the line protocol can carry without ambiguity and that names
 * something patterm made: absolute, normalised, not the root, one line.
 */
function carriable(path: string): boolean {
  return isAbsolute(path) && normalize(path) === path && path !== '/' && !path.includes('\n');
}

function send(line: string): void {
  if (watchdog && !watchdog.destroyed) watchdog.write(line + '\n');
}

/**
 * Has the watchdog remove `path` if patterm dies while it is registered.
 * Returns the function that takes it back (call it once patterm has removed
 * the path itself).
 */
export function removeAfterDeath(path: string, kind: LeftoverKind): () => void {
  if (!carriable(path)) {
    // A newline would split the entry into two lines, the second one a path patterm never made.
    pattermLog(`not handing ${JSON.stringify(path)} to the orphan watchdog: it is not a normalised absolute path on one line; it is only removed at a normal exit`);
    return () => undefined;
  }
  return register((kind === 'tree' ? 'r' : 'f') + path);
}

/**
 * Has the watchdog SIGKILL the adopted orphan `pid` and its descendants if patterm
 * dies first. Returns the function that takes it back (call it once it is reaped).
 */
export function killAfterDeath(pid: number): () => void {
  return register(`p${pid}`);
}

function register(entry: string): () => void {
  registered.set(entry, (registered.get(entry) ?? 0) + 1);
  send(`+${entry}`);
  let forgotten = false;
  return () => {
    if (forgotten) return;
    forgotten = true;
    const count = registered.get(entry) ?? 0;
    if (count <= 1) registered.delete(entry);
    else registered.set(entry, count - 1);
    send(`-${entry}`);
  };
}

/** Hands every registered path, now and later, to the watchdog listening on `stdin`. */
export function attachWatchdog(stdin: Writable): void {
  watchdog = stdin;
  // The watchdog may have been killed; patterm must not crash on EPIPE for it.
  stdin.on('error', warnError('writing to the orphan watchdog; after a SIGKILL of patterm, panes and files may be left'));
  for (const [entry, count] of registered) for (let i = 0; i < count; i++) send(`+${entry}`);
}
