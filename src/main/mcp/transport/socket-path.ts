/**
 * Where the MCP socket listens: one per patterm process, named by its pid. A
 * private IPC channel, not a discovery point, so no path is predictable to
 * another user:
 * - PATTERM_SOCKET, when set: exactly that path (start-up fails, naming it, if
 *   something already serves there);
 * - else $XDG_RUNTIME_DIR/patterm/<pid>.sock (a directory only its user can enter);
 * - else, or when that path is taken, <pid>.sock in a fresh 0700 directory made by
 *   mkdtemp in the temp directory ($TMPDIR or /tmp), removed on exit.
 * So start-up never fails because someone else holds a path.
 */
import { connect } from 'node:net';
import { chmod, lstat, mkdir, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { ignoreError, log, logIgnored } from '../../../node/patterm-log.js';
import { removeAtExit } from '../../process/exit-cleanups.js';

/** Owner-only: the socket is the only thing between other local users and the panes. */
export const SOCKET_DIR_MODE = 0o700;
export const SOCKET_MODE = 0o600;
/** The environment variable that picks the socket's path. */
export const SOCKET_PATH_VAR = 'PATTERM_SOCKET';
/** How long to wait for an existing socket file to answer before calling it stale. */
const STALE_PROBE_TIMEOUT_MS = 1000;

/** $XDG_RUNTIME_DIR/patterm/<pid>.sock, or null when XDG_RUNTIME_DIR is unset or relative. */
export function runtimeSocketPath(env: NodeJS.ProcessEnv = process.env, pid: number = process.pid): string | null {
  const runtime = env.XDG_RUNTIME_DIR;
  return runtime && isAbsolute(runtime) ? join(runtime, 'patterm', `${pid}.sock`) : null;
}

export interface SocketLocation {
  path: string;
  /** Removes the private directory made for the socket, if one was (its socket must be gone by then). */
  release(): Promise<void>;
}

/**
 * Picks the socket's path and makes it ready to listen on (see the top of this file).
 * `explicit`: a path the caller chose (tests), which behaves as PATTERM_SOCKET does.
 */
export async function claimSocketPath(explicit?: string, env: NodeJS.ProcessEnv = process.env, pid: number = process.pid): Promise<SocketLocation> {
  const chosen = explicit ?? env[SOCKET_PATH_VAR];
  if (chosen) {
    if (!isAbsolute(chosen)) throw new Error(`${SOCKET_PATH_VAR} must be an absolute path (received ${JSON.stringify(chosen)})`);
    await prepareSocketPath(chosen).catch((error: Error) => {
      throw new Error(`${explicit ? 'socket path' : SOCKET_PATH_VAR} ${chosen}: ${error.message}`);
    });
    return { path: chosen, release: async () => undefined };
  }
  const runtime = runtimeSocketPath(env, pid);
  if (runtime) {
    try {
      await prepareSocketPath(runtime);
      return { path: runtime, release: async () => undefined };
    } catch (error) {
      log.info(`MCP socket: ${runtime} cannot be used (${(error as Error).message}); using a private directory instead`);
    }
  }
  return privateSocketLocation(pid);
}

/** <pid>.sock in a new directory that only this user can enter, with a name nobody can guess. */
async function privateSocketLocation(pid: number): Promise<SocketLocation> {
  const dir = await mkdtemp(join(tmpdir(), 'patterm-'));
  await chmod(dir, SOCKET_DIR_MODE); // mkdtemp makes it 0700 already; a umask cannot loosen this
  const forgetRemoval = removeAtExit(dir, 'tree');
  return {
    path: join(dir, `${pid}.sock`),
    release: async () => {
      await rm(dir, { recursive: true, force: true });
      forgetRemoval();
    },
  };
}

/**
 * Makes `path` ready to listen on: its private directory exists with mode 0700,
 * and a leftover socket file from a dead process is removed. A socket that still answers is someone else's, and is left alone.
 */
export async function prepareSocketPath(path: string): Promise<void> {
  await prepareSocketDir(path);
  let existing;
  try {
    existing = await lstat(path);
  } catch (error) {
    logIgnored(`looking for a stale socket at ${path}`, error);
    return;
  }
  if (existing.isSocket() && (await answers(path))) {
    throw new Error(`another process is already serving MCP at ${path}; pick another path`);
  }
  if (existing.isDirectory()) throw new Error(`cannot listen at ${path}: it is a directory`);
  await unlink(path);
}

/**
 * The socket's private directory exists, is this user's own real directory (not a
 * link, not made by someone else who guessed its name) and has mode 0700.
 */
export async function prepareSocketDir(path: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: SOCKET_DIR_MODE });
  const stat = await lstat(dir);
  if (!stat.isDirectory()) throw new Error(`the socket's directory ${dir} is not a directory (a link?)`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new Error(`the socket's directory ${dir} belongs to uid ${stat.uid}, not to this user (${uid})`);
  await chmod(dir, SOCKET_DIR_MODE);
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const finish = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => finish(false), STALE_PROBE_TIMEOUT_MS);
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
