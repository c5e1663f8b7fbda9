/**
 * Worker threads start from the bundles scripts/bundle.mjs writes after tsc
 * (src/main/threads/worker-entry.ts), and the TUI app loads from one
 * (src/main/bundles.ts). A bundle must stand alone (no file of
 * ours loaded beside it, or the boot it saves is back), must be built from
 * tsc's current output (or workers run old code), and must carry the vendored
 * ghostty-web, not the package's build with its embedded WASM.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_ENTRIES, workerEntryUrl } from '../../src/main/threads/worker-entry.js';
import { APP_ENTRY, COMMONJS_ENTRIES, HEADLESS_ENTRY, bundleUrl } from '../../src/main/bundles.js';

/** Packages the script leaves outside the bundles (its EXTERNAL). */
const EXTERNAL = ['node-pty', 'terminal-kit', 'piscina'];
/** And outside the app's (APP_EXTERNAL): the SDK it loads only once an agent connects. */
const APP_EXTERNAL = [...EXTERNAL, '@modelcontextprotocol/sdk'];
/**
 * ghostty-web's own loader (Ghostty.load) imports vite's stand-in for `fs`
 * from beside itself; patterm instantiates the WASM itself and never calls it
 * (scripts/vendor-ghostty.mjs), so the import is never evaluated.
 */
const GHOSTTY_LOADER_IMPORT = /^\.\/__vite-browser-external-[0-9a-f]+\.js$/;
const PAYLOAD = /data:application\/wasm;base64,[A-Za-z0-9+/=]{1000,}/;
const COMPILED_SOURCES = fileURLToPath(new URL('../../src/', import.meta.url));

/** The most recently written of tsc's files: tsc -b rewrites only what changed, so any of them may be newer than a stale bundle. */
function newestCompiledFile(): { path: string; mtimeMs: number } {
  let newest = { path: '', mtimeMs: 0 };
  for (const name of readdirSync(COMPILED_SOURCES, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.js') || name.endsWith('.bundle.js')) continue;
    const mtimeMs = statSync(join(COMPILED_SOURCES, name)).mtimeMs;
    if (mtimeMs > newest.mtimeMs) newest = { path: name, mtimeMs };
  }
  return newest;
}

function importedSpecifiers(source: string): string[] {
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']/gm)].map((match) => match[1]);
  const bare = [...source.matchAll(/^\s*import\s*["']([^"']+)["']/gm)].map((match) => match[1]);
  const dynamic = [...source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
  const required = [...source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
  return [...specifiers, ...bare, ...dynamic, ...required];
}

const BUNDLES = [
  ...WORKER_ENTRIES.map((entry) => ({ entry, url: workerEntryUrl(entry), external: EXTERNAL })),
  ...[APP_ENTRY, HEADLESS_ENTRY].map((entry) => ({ entry, url: bundleUrl(entry), external: APP_EXTERNAL })),
];

for (const { entry, url, external: EXTERNAL } of BUNDLES) {
  test(`${entry}: its bundle stands alone and is built from tsc's current output`, () => {
    const bundle = fileURLToPath(url);
    assert.match(bundle, COMMONJS_ENTRIES.includes(entry) ? /\.bundle\.cjs$/ : /\.bundle\.js$/);
    const source = readFileSync(bundle, 'utf8');
    for (const specifier of importedSpecifiers(source)) {
      const allowed = specifier.startsWith('node:') || GHOSTTY_LOADER_IMPORT.test(specifier) || EXTERNAL.some((name) => specifier === name || specifier.startsWith(`${name}/`));
      assert.ok(allowed, `${entry}'s bundle imports ${specifier}: only Node built-ins and ${EXTERNAL.join(', ')} may stay outside`);
    }
    assert.doesNotMatch(source, PAYLOAD, 'the bundle carries ghostty-web with its embedded WASM, not the vendored copy');

    const newest = newestCompiledFile();
    assert.ok(
      statSync(bundle).mtimeMs >= newest.mtimeMs,
      `${entry}'s bundle is older than tsc's ${newest.path}: run \`pnpm build\` (tsc -b alone leaves workers on the previous bundle)`,
    );
  });
}

test('the pane worker bundle holds the emulator and the pane service, not just an entry stub', () => {
  const source = readFileSync(fileURLToPath(workerEntryUrl('workers/pane-worker')), 'utf8');
  for (const name of ['PaneService', 'GhosttyEmulator', 'OutputLaneReader']) {
    assert.match(source, new RegExp(`\\b(class|var|let|const) ${name}\\b`), `${name} is not defined in the pane worker's bundle`);
  }
});

for (const entry of [APP_ENTRY, HEADLESS_ENTRY, 'workers/pane-worker']) {
  test(`${entry}: its bundle makes no import() but importExternal's: it runs in a vm.Script, where import() has no loader`, () => {
    const source = readFileSync(fileURLToPath(bundleUrl(entry)), 'utf8');
    const outside = source.replace(/function importExternal\([^)]*\) \{[^}]*\}/, '').replace(/\bimport\("(\.\/__vite-browser-external-[0-9a-f]+\.js)"\)/g, (call, specifier) => (GHOSTTY_LOADER_IMPORT.test(specifier) ? 'ghosttyLoader' : call));
    assert.doesNotMatch(outside, /\bimport\(/, `a module of ${entry} imports a package with import(); use importExternal (src/node/external-import.ts)`);
  });
}

test("the app's bundle holds the coordinator and the TUI host, and cli.ts loads it rather than tsc's app.js", () => {
  const source = readFileSync(fileURLToPath(bundleUrl(APP_ENTRY)), 'utf8');
  for (const name of ['Coordinator', 'TuiHost', 'Lifecycle']) {
    assert.match(source, new RegExp(`\\b(class|var|let|const) ${name}\\b`), `${name} is not defined in the app's bundle`);
  }
  const cli = readFileSync(fileURLToPath(new URL('../../src/main/cli.js', import.meta.url)), 'utf8');
  assert.doesNotMatch(cli, /import\(['"]\.\/app\.js['"]\)/, "cli.ts imports tsc's app.js, not the bundle");
});
