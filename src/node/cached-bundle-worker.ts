/**
 * Entry point of a worker thread whose code is a CommonJS bundle run through
 * V8's code cache (code-cache.ts), as the app's bundle runs on the main
 * thread: a pane gets a worker of its own, and compiling the pane worker's
 * bundle again in every one of them was a large share of a pane's start
 * (figures: docs/perf-notes.md).
 *
 * The launcher names the bundle and the cache folder in workerData
 * (CACHED_BUNDLE_DATA); the bundle reads the rest of workerData as if it had
 * been started itself, and calls saveWorkerCodeCache() once the code that
 * matters has run.
 */
import { workerData } from 'node:worker_threads';
import { requireWithCodeCache } from './code-cache.js';
import { log } from './patterm-log.js';
import { CACHED_BUNDLE_DATA, installCodeCacheLink, type CachedBundleData } from './worker-code-cache.js';

const { bundle, cacheDir } = (workerData as Record<typeof CACHED_BUNDLE_DATA, CachedBundleData>)[CACHED_BUNDLE_DATA];
requireWithCodeCache(bundle, cacheDir, (compiled) => {
  log.debug(`worker bundle ${bundle}: code cache ${compiled.cache}`);
  installCodeCacheLink(compiled);
});
