/**
 * A small piscina pool for stateless CPU work that would otherwise run on the
 * coordinator thread, where every millisecond spent is a millisecond no MCP call
 * is answered and no grid read or lifecycle event is handled. Large inputs go
 * to the pool; small ones run inline, because a hop to a pool thread costs more
 * than stripping a few KiB (bench: `pnpm bench cpu-pool`).
 *
 * Threads start on first use and exit when idle, so a patterm that never reads
 * large streams never pays for them. piscina itself is imported then too: it
 * is part of the main thread's start-up otherwise, before the first frame.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { diffRows, findRow, streamLines, type DiffRowsTask, type FindRowTask, type StreamLinesResult, type StreamLinesTask } from '../../node/cpu-tasks.js';
import { workerEntryUrl } from './worker-entry.js';
import { importExternal } from '../../node/external-import.js';
import { ignoreError } from '../../node/patterm-log.js';

/** Below this many bytes a stream read is stripped inline: the pool hop costs more than the work (bench cpu-pool). */
export const POOL_MIN_STREAM_BYTES = 128 * 1024;
/** Below this many rows a diff runs inline (a screen is ~40 rows: always inline in practice). */
export const POOL_MIN_DIFF_ROWS = 20_000;
/** Pool threads exit after this long without work. */
const IDLE_TIMEOUT_MS = 30_000;
/**
 * One thread per spare core, at least one: the pool must not compete with pane
 * workers for more cores than the machine has, and the coordinator keeps one.
 */
const MAX_THREADS = Math.max(1, availableParallelism() - 1);

const TASKS_FILE = workerEntryUrl('node/cpu-tasks').href;

let pool: Promise<Piscina> | null = null;

function cpuPool(): Promise<Piscina> {
  pool ??= importExternal<typeof import('piscina')>('piscina').then(
    ({ Piscina }) => new Piscina({ filename: TASKS_FILE, minThreads: 0, maxThreads: MAX_THREADS, idleTimeout: IDLE_TIMEOUT_MS }),
    (error: Error) => {
      pool = null; // the next call tries again; this one's caller gets the error
      throw error;
    },
  );
  return pool;
}

/**
 * Decoded, ANSI-stripped lines of a stream read (a caller's filter runs on a
 * pattern matcher thread instead: pattern-matcher.ts). Large inputs are
 * transferred to a pool thread: `bytes` must not be used afterwards by the
 * caller (its buffer is detached).
 */
export async function streamLinesOffThread(bytes: Uint8Array, options: { force?: 'inline' | 'pool' } = {}): Promise<StreamLinesResult> {
  const task: StreamLinesTask = { bytes, pattern: null, flags: '' };
  const usePool = options.force === 'pool' || (options.force !== 'inline' && task.bytes.length >= POOL_MIN_STREAM_BYTES);
  if (!usePool) return streamLines(task);
  // Transfer, not copy, when the view owns its whole buffer; otherwise copy just the view
  // (Uint8Array's slice: a Node Buffer's own slice() would be a view, and transferring it would detach the caller's data).
  const whole = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength;
  const owned = whole ? task.bytes : Uint8Array.prototype.slice.call(task.bytes);
  return (await cpuPool()).run({ ...task, bytes: owned }, { name: 'streamLines', transferList: [owned.buffer as ArrayBuffer] }) as Promise<StreamLinesResult>;
}

export async function diffRowsOffThread(task: DiffRowsTask): Promise<number[]> {
  if (Math.max(task.before.length, task.after.length) < POOL_MIN_DIFF_ROWS) return diffRows(task);
  return (await cpuPool()).run(task, { name: 'diffRows' }) as Promise<number[]>;
}

/** Below this many rows a history search runs inline: a screenful or two is microseconds of work. */
export const POOL_MIN_FIND_ROWS = 200;

/**
 * Searches a pane's history for the TUI's reader. Thousands of rows of cells
 * are decoded to text, tens of milliseconds the coordinator thread would not
 * serve anything else; the frame's cells are transferred to the pool thread.
 */
export async function findRowOffThread(task: FindRowTask): Promise<number> {
  if (task.frame.rows < POOL_MIN_FIND_ROWS) return findRow(task);
  return (await cpuPool()).run(task, { name: 'findRow', transferList: [task.frame.cells.buffer as ArrayBuffer] }) as Promise<number>;
}

/** Ends the pool threads (on shutdown; idle threads also end by themselves). */
export async function closeCpuPool(): Promise<void> {
  const closing = pool;
  pool = null;
  // A pool whose import failed has nothing to end; its error went to the call that asked for it.
  const started = await closing?.catch(ignoreError('starting the CPU pool (reported to the call that asked for it)', null));
  await started?.destroy();
}
