/**
 * The link between a worker's code, bundled and compiled from V8's code cache
 * by cached-bundle-worker.ts, and the loader that can write that cache. They
 * are two bundles, each with its own copy of this module, so the link lives
 * in a global slot, as external-import.ts's importer does.
 */
import type { CachedBundle } from './code-cache.js';

const LINK = Symbol.for('patterm.workerCodeCache');

/** The workerData key under which a launcher names the bundle to run and its cache folder. */
export const CACHED_BUNDLE_DATA = 'cachedBundle';

export interface CachedBundleData {
  /** The CommonJS bundle's path. */
  bundle: string;
  /** Where its code cache is kept. */
  cacheDir: string;
}

type Link = Pick<CachedBundle, 'cache' | 'saveCache'>;

const link = () => (globalThis as { [LINK]?: Link })[LINK];

/** Called by the loader, before the bundle runs: its top level may already ask. */
export function installCodeCacheLink(installed: Link): void {
  (globalThis as { [LINK]?: Link })[LINK] = installed;
}

/**
 * Writes this worker's code cache if it compiled without one (a first launch,
 * a new build): call it once the code that matters has run, as V8 caches the
 * functions compiled by then. Does nothing in a worker started from its
 * bundle directly (tests that replace an entry), and never throws.
 */
export function saveWorkerCodeCache(): void {
  link()?.saveCache();
}

/** How this worker's bundle compiled: from the cache ('accepted'), or not; null when not started through the loader. */
export function workerCodeCacheState(): CachedBundle['cache'] | null {
  return link()?.cache ?? null;
}
