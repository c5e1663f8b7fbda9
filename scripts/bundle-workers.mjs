#!/usr/bin/env node
/**
 * Writes one bundled file per worker entry point, next to tsc's output:
 * dist/src/workers/pane-worker.bundle.js and so on. The launchers start these.
 *
 * Why: a worker thread loads its module graph on its own, file by file, and a
 * pane gets a worker of its own. Resolving and compiling pane-worker's
 * modules one by one was a large share of a boot (figures:
 * docs/perf-notes.md). VS Code bundles its pty host likewise.
 *
 * Runs after `tsc -b` and vendor-ghostty.mjs (the package's `build` script):
 * it bundles tsc's JavaScript, so the bundles are exactly what tsc checked.
 * Native and file-loading packages stay outside (EXTERNAL).
 *
 * Usage: node scripts/bundle-workers.mjs
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/** Every file a `new Worker(...)` or the piscina pool starts: the launchers' own list, as tsc compiled it. */
const ENTRIES = await import(new URL('../dist/src/main/threads/worker-entry.js', import.meta.url).href)
  .then((module) => module.WORKER_ENTRIES.map((entry) => `src/${entry}.js`))
  .catch((error) => fail(`cannot read the worker entry points from tsc's output (did tsc -b run first?): ${error.message}`));

/**
 * node-pty loads its native addon relative to its own files; terminal-kit
 * requires its terminal definitions by computed paths; piscina starts its own
 * worker script from its package. Bundled, each would look in the wrong place.
 */
const EXTERNAL = ['node-pty', 'terminal-kit', 'piscina'];

function fail(message) {
  process.stderr.write(`bundle-workers: ${message}\n`);
  process.exit(1);
}

let result;
try {
  result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES.map((entry) => join(DIST, entry)),
    outbase: DIST,
    outdir: DIST,
    entryNames: '[dir]/[name].bundle',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
  });
} catch (error) {
  const problems = error.errors?.map((problem) => `${problem.location?.file ?? '?'}:${problem.location?.line ?? '?'}: ${problem.text}`) ?? [String(error)];
  fail(`esbuild failed (did tsc -b run first?):\n  ${problems.join('\n  ')}`);
}
for (const warning of result.warnings) process.stderr.write(`bundle-workers: warning: ${warning.text}\n`);

for (const output of result.outputFiles) {
  mkdirSync(dirname(output.path), { recursive: true });
  // Write then rename: a build cut short never leaves a half-written bundle for a worker to load.
  const partial = `${output.path}.${process.pid}.partial`;
  writeFileSync(partial, output.contents);
  renameSync(partial, output.path);
}
