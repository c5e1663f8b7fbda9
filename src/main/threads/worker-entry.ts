import { fileURLToPath } from 'node:url';
import { bundleUrl, codeCacheDir } from '../bundles.js';
import { cacheHome } from '../../node/xdg-dirs.js';
import { CACHED_BUNDLE_DATA, type CachedBundleData } from '../../node/worker-code-cache.js';

/**
 * Where each worker thread's code is. Workers start from one bundled file per
 * entry point (scripts/bundle.mjs, run by the build after tsc, bundles
 * exactly this list), not from tsc's files: a worker loads its module graph on
 * its own, and a pane gets a worker of its own, so loading tsc's files one by
 * one was a large share of a spawn's CPU (figures: docs/perf-notes.md).
 */
export const WORKER_ENTRIES = ['workers/pane-worker', 'workers/pty-host-worker', 'renderer/renderer-worker', 'node/cpu-tasks', 'node/pattern-match-thread', 'node/cached-bundle-worker'] as const;

export type WorkerEntry = (typeof WORKER_ENTRIES)[number];

/** Entries this process starts from elsewhere (replaceWorkerEntry). */
const replaced = new Map<WorkerEntry, URL>();

/**
 * Starts `entry`'s workers from `url` in this process from now on, or from the
 * bundle again with null. Tests use it to start workers from test-only entry
 * points that wrap the real ones with fault injection.
 */
export function replaceWorkerEntry(entry: WorkerEntry, url: URL | null): void {
  if (url) replaced.set(entry, url);
  else replaced.delete(entry);
}

/** The bundle of `entry` (unless replaced). */
export function workerEntryUrl(entry: WorkerEntry): URL {
  return replaced.get(entry) ?? bundleUrl(entry);
}

/**
 * Entries whose workers compile their bundle from V8's code cache, through
 * node/cached-bundle-worker.ts: one worker per pane, so each pane's start
 * paid for compiling the same bundle again.
 */
const CODE_CACHED_ENTRIES: readonly WorkerEntry[] = ['workers/pane-worker'];

/** How to start a worker of `entry`: the file to start, and what to add to the entry's own workerData. */
export function workerStart(entry: WorkerEntry): { url: URL; data: { [CACHED_BUNDLE_DATA]?: CachedBundleData } } {
  const replacement = replaced.get(entry);
  if (replacement || !CODE_CACHED_ENTRIES.includes(entry)) return { url: replacement ?? bundleUrl(entry), data: {} };
  return { url: bundleUrl('node/cached-bundle-worker'), data: { [CACHED_BUNDLE_DATA]: { bundle: fileURLToPath(bundleUrl(entry)), cacheDir: codeCacheDir(cacheHome()) } } };
}

/**
 * V8 heap limits of the pane and PTY host threads. Their bytes live in shared
 * memory and WASM, so their JavaScript heaps stay small, but V8 grows a
 * thread's young generation towards its limit (under a flood, or a TUI's
 * start-up) and keeps it resident while the thread idles. This limit is V8's
 * initial size, so it never grows; a smaller limit saved nothing more, and
 * made animating panes collect more often (docs/perf-notes.md).
 */
export const SMALL_HEAP_LIMITS = { maxYoungGenerationSizeMb: 2 } as const;
