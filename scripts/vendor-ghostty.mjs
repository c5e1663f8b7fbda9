#!/usr/bin/env node
/**
 * Writes dist/vendor/ghostty-web.js: ghostty-web's ESM build without the copy
 * of ghostty-vt.wasm it embeds as a base64 data URL (564 KB of source).
 *
 * Why: every pane worker imports ghostty-web, and V8 keeps that string alive in
 * each worker's heap: 2.2 MiB per pane (20 idle panes: 16.2 -> 14.0 MiB each in
 * `pnpm bench many-agents`). patterm never uses the embedded copy: the main
 * thread compiles ghostty-vt.wasm from its file once (src/main/threads/wasm-module.ts)
 * and every worker instantiates that module. ghostty-web's own loader, the only
 * reader of the data URL, is never called.
 *
 * Runs after `tsc -b` (the package's `build` script). Workers import it as
 * `#ghostty-web` (package.json "imports"), with ghostty-web's own types.
 *
 * Usage: node scripts/vendor-ghostty.mjs [--source <ghostty-web.js>] [--out <file>]
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The embedded module: `new URL("data:application/wasm;base64,<payload>", ...)` in 0.4.0. */
const EMBEDDED_WASM = /data:application\/wasm;base64,[A-Za-z0-9+/=]+/g;
/** Below this the match is not the module (ghostty-vt.wasm is ~420 KB, ~560 KB as base64). */
const MIN_PAYLOAD_CHARS = 100_000;

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
}

function fail(message) {
  process.stderr.write(`vendor-ghostty: ${message}\n`);
  process.exit(1);
}

// The ESM build (the "import" condition), which the workers load; require() would resolve the UMD one.
const source = option('--source', fileURLToPath(import.meta.resolve('ghostty-web')));
const out = option('--out', join(ROOT, 'dist', 'vendor', 'ghostty-web.js'));
if (!source || !out) fail('--source and --out each need a path after them');

let text;
try {
  text = readFileSync(source, 'utf8');
} catch (error) {
  fail(`cannot read ghostty-web's build at ${source}: ${error.message}`);
}
const matches = [...text.matchAll(EMBEDDED_WASM)];
if (matches.length !== 1 || matches[0][0].length < MIN_PAYLOAD_CHARS) {
  const found = matches.map((match) => match[0].length).join(', ') || 'none';
  fail(`expected exactly one embedded ghostty-vt.wasm (a base64 data URL of ${MIN_PAYLOAD_CHARS}+ characters) in ${source}; found ${found}. ghostty-web's build has changed: update this script.`);
}
// Relative imports would point at files that are not copied next to the output.
const relativeImport = text.match(/^\s*(?:import|export)\b[^\n]*from\s*["']\.{1,2}\/[^\n]*/m);
if (relativeImport) fail(`${source} imports a file relative to itself (${relativeImport[0].trim()}); this script copies one file only`);

const slim = text.replace(EMBEDDED_WASM, 'data:application/wasm;base64,');
mkdirSync(dirname(out), { recursive: true });
// Write then rename: a build cut short never leaves a half-written module for workers to import.
const partial = `${out}.${process.pid}.partial`;
writeFileSync(partial, slim);
renameSync(partial, out);
