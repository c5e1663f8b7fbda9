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
 * Where the bundle of `entry` is. Anchored at the package root, not at this
 * file, which itself runs from tsc's output or from inside the app's bundle.
 */
export function bundleUrl(entry: string): URL {
  return pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', `${entry}.bundle.js`));
}
