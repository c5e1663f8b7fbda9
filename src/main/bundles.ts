/**
 * patterm's bundled entry points: scripts/bundle.mjs, run by the build after
 * tsc, writes one bundle per entry beside tsc's `<entry>.js` under dist/src.
 * The worker threads' entries are listed in threads/worker-entry.ts.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from './version.js';

/**
 * The TUI app's module graph, bundled as the workers are: loaded file by file
 * it took a large share of the time to the first frame, most of it resolving
 * and opening files (figures: docs/perf-notes.md). cli.ts loads it after
 * starting the renderer thread, so the bundle never delays that.
 */
export const APP_ENTRY = 'main/app';

/**
 * `patterm mcp`'s module graph past its first answer (headless.ts, hosts/headless-host.ts),
 * bundled as the app is: the host's session is ready sooner.
 */
export const HEADLESS_ENTRY = 'main/headless';

/**
 * Entries bundled as CommonJS (`<entry>.bundle.cjs`), the rest as ES modules.
 * Both are on the path to the first frame. A worker that starts from a
 * CommonJS file never sets up Node's ES module loader, a large share of an
 * empty worker's boot; and only a script, not an ES module, can compile from
 * V8's code cache, as cli.ts loads the app (figures: docs/perf-notes.md).
 */
export const COMMONJS_ENTRIES: readonly string[] = ['renderer/renderer-worker', 'workers/pane-worker', 'node/cached-bundle-worker', APP_ENTRY, HEADLESS_ENTRY];

/**
 * Where the bundle of `entry` is. Anchored at the package root, not at this
 * file, which itself runs from tsc's output or from inside the app's bundle.
 */
export function bundleUrl(entry: string): URL {
  const extension = COMMONJS_ENTRIES.includes(entry) ? 'cjs' : 'js';
  return pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', `${entry}.bundle.${extension}`));
}

/**
 * How long after a bundle's program has started (the app's first frame, the
 * headless host's session) the bundle's code cache is written, when it was
 * missing: V8 caches what the start compiled too, and a short first run still
 * leaves one behind.
 */
export const CODE_CACHE_SAVE_DELAY_MS = 200;

/** Where the bundles' V8 code caches are kept. */
export const codeCacheDir = (cacheHome: string) => join(cacheHome, 'patterm', 'code-cache');

/** The bundle of `entry` (a COMMONJS_ENTRIES one), compiled from V8's code cache when a previous launch left one (src/node/code-cache.ts). */
export async function loadBundle(entry: string): Promise<import('../node/code-cache.js').CachedBundle> {
  const [{ requireWithCodeCache }, { cacheHome }, { fileURLToPath }] = await Promise.all([import('../node/code-cache.js'), import('../node/xdg-dirs.js'), import('node:url')]);
  return requireWithCodeCache(fileURLToPath(bundleUrl(entry)), codeCacheDir(cacheHome()));
}
