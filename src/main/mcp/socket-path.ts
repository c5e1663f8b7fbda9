/**
 * The per-PID unix socket (spec §3, §10): $XDG_RUNTIME_DIR/patterm/<pid>.sock,
 * or /tmp/patterm-<pid>.sock when XDG_RUNTIME_DIR is unset. A private IPC
 * channel, not a discovery point.
 */
import { connect } from 'node:net';
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { ignoreError, logIgnored } from '../../node/patterm-log.js';

/** Owner-only: the socket is the only thing between other local users and the panes. */
export const SOCKET_DIR_MODE = 0o700;
export const SOCKET_MODE = 0o600;
/** How long to wait for an existing socket file to answer before calling it stale. */
const STALE_PROBE_TIMEOUT_MS = 1000;

export function defaultSocketPath(env: NodeJS.ProcessEnv = process.env, pid: number = process.pid): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) return join(runtime, 'patterm', `${pid}.sock`);
  return join('/tmp', `patterm-${pid}.sock`);
}

/**
 * Makes `path` ready to listen on: its private directory exists with mode 0700
 * (unless it is /tmp itself), and a leftover socket file from a dead process is
 * removed. A socket that still answers is someone else's, and is left alone.
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
    throw new Error(`another process is already serving MCP at ${path}; pass a different socket path`);
  }
  if (existing.isDirectory()) throw new Error(`cannot listen at ${path}: it is a directory`);
  await unlink(path);
}

/** The socket's private directory exists with mode 0700 (unless it is /tmp itself). */
export async function prepareSocketDir(path: string): Promise<void> {
  const dir = dirname(path);
  if (dir === '/tmp') return;
  await mkdir(dir, { recursive: true, mode: SOCKET_DIR_MODE });
  await chmod(dir, SOCKET_DIR_MODE).catch(ignoreError(`restricting the socket directory ${dir}`));
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
