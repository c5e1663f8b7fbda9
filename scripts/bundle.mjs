#!/usr/bin/env node
/**
 * Writes one bundled file per entry point, next to tsc's output:
 * dist/src/workers/pane-worker.bundle.js and so on for the worker threads,
 * which their launchers start, dist/src/main/app.bundle.cjs for the TUI
 * app, which cli.ts loads, and dist/src/main/headless.bundle.cjs for
 * `patterm mcp` (hosts/mcp-command.ts). The entries src/main/bundles.ts lists in
 * COMMONJS_ENTRIES are CommonJS (`.bundle.cjs`), the rest ES modules.
 *
 * Why: a worker thread loads its module graph on its own, file by file, and a
 * pane gets a worker of its own. Resolving and compiling pane-worker's
 * modules one by one was a large share of a boot, and the app's were a large
 * share of the time to the first frame (figures: docs/perf-notes.md). VS Code
 * bundles its pty host likewise.
 *
 * Runs after `tsc -b` and vendor-ghostty.mjs (the package's `build` script):
 * it bundles tsc's JavaScript, so the bundles are exactly what tsc checked.
 * Native and file-loading packages stay outside (EXTERNAL).
 *
 * Usage: node scripts/bundle.mjs
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/** Every file a `new Worker(...)` or the piscina pool starts: the launchers' own list, as tsc compiled it. */
const WORKER_ENTRIES = await import(new URL('../dist/src/main/threads/worker-entry.js', import.meta.url).href)
  .then((module) => module.WORKER_ENTRIES.map((entry) => `src/${entry}.js`))
  .catch((error) => fail(`cannot read the worker entry points from tsc's output (did tsc -b run first?): ${error.message}`));
const { APP_ENTRIES, COMMONJS_ENTRIES } = await import(new URL('../dist/src/main/bundles.js', import.meta.url).href)
  .then((module) => ({ APP_ENTRIES: [module.APP_ENTRY, module.HEADLESS_ENTRY].map((entry) => `src/${entry}.js`), COMMONJS_ENTRIES: module.COMMONJS_ENTRIES.map((entry) => `src/${entry}.js`) }))
  .catch((error) => fail(`cannot read the app's entry point from tsc's output (did tsc -b run first?): ${error.message}`));

/**
 * node-pty loads its native addon relative to its own files; terminal-kit
 * requires its terminal definitions by computed paths; piscina starts its own
 * worker script from its package. Bundled, each would look in the wrong place.
 */
const EXTERNAL = ['node-pty', 'terminal-kit', 'piscina'];
/**
 * The app also leaves out the MCP SDK, which it imports only when the first
 * agent connects or once the TUI is up (src/main/mcp/transport/mcp-sdk.ts): bundled,
 * its code would be read and parsed before the first frame.
 */
const APP_EXTERNAL = [...EXTERNAL, '@modelcontextprotocol/sdk'];

function fail(message) {
  process.stderr.write(`bundle: ${message}\n`);
  process.exit(1);
}

/**
 * A CommonJS bundle has no import.meta; the modules that find files beside
 * themselves (createRequire(import.meta.url)) get the bundle's own URL.
 */
const COMMONJS_OPTIONS = {
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

/** Bundles `entries` with `external` left outside; exits with the problems if esbuild fails. */
async function bundle(entries, external, options = {}) {
  try {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: entries.map((entry) => join(DIST, entry)),
      outbase: DIST,
      outdir: DIST,
      entryNames: '[dir]/[name].bundle',
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: external.flatMap((name) => [name, `${name}/*`]),
      sourcemap: 'linked',
      write: false,
      logLevel: 'silent',
      ...options,
    });
    for (const warning of result.warnings) process.stderr.write(`bundle: warning: ${warning.text}\n`);
    return result.outputFiles;
  } catch (error) {
    const problems = error.errors?.map((problem) => `${problem.location?.file ?? '?'}:${problem.location?.line ?? '?'}: ${problem.text}`) ?? [String(error)];
    return fail(`esbuild failed (did tsc -b run first?):\n  ${problems.join('\n  ')}`);
  }
}

// Both built before either is written: a failed build leaves the previous bundles whole.
const outputs = [];
for (const [entries, external] of [[WORKER_ENTRIES, EXTERNAL], [APP_ENTRIES, APP_EXTERNAL]]) {
  for (const commonJs of [false, true]) {
    const chosen = entries.filter((entry) => COMMONJS_ENTRIES.includes(entry) === commonJs);
    if (chosen.length > 0) outputs.push(...(await bundle(chosen, external, commonJs ? COMMONJS_OPTIONS : {})));
  }
}

for (const output of outputs) {
  mkdirSync(dirname(output.path), { recursive: true });
  // Write then rename: a build cut short never leaves a half-written bundle to load.
  const partial = `${output.path}.${process.pid}.partial`;
  writeFileSync(partial, output.contents);
  renameSync(partial, output.path);
}
