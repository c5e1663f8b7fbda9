/**
 * A CommonJS bundle loaded through V8's code cache: it runs as require()
 * would run it, compiles from the cache on the next load, and a cache that is
 * stale, corrupt or cannot be written never stops it loading.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { requireWithCodeCache } from '../../src/node/code-cache.js';
import { importExternal } from '../../src/node/external-import.js';

/** A bundle-like CommonJS file: module.exports, require, __filename and an external import() through importExternal. */
function bundleSource(answer: string): string {
  return `
    const { basename } = require('node:path');
    const importer = globalThis[Symbol.for('patterm.externalImporter')];
    module.exports = { answer: ${JSON.stringify(answer)}, file: basename(__filename), loadOs: () => importer('node:os') };
  `;
}

function withDirs(run: (bundle: string, cacheDir: string) => void | Promise<void>): () => Promise<void> {
  return async () => {
    const root = mkdtempSync(join(tmpdir(), 'patterm-code-cache-'));
    try {
      await run(join(root, 'thing.bundle.cjs'), join(root, 'cache'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
}

type Exports = { answer: string; file: string; loadOs(): Promise<typeof import('node:os')> };

const LOADER = new URL('../../src/node/code-cache.js', import.meta.url).href;

/**
 * Loads the bundle in a fresh process (and saves its cache): within one
 * process V8 reuses a script it compiled already, whatever the cache says.
 */
function loadFresh(bundle: string, cacheDir: string): { cache: string; answer: string } {
  const script = `
    const { requireWithCodeCache } = await import(${JSON.stringify(LOADER)});
    const loaded = requireWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)});
    loaded.saveCache();
    process.stdout.write(JSON.stringify({ cache: loaded.cache, answer: loaded.exports.answer }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { cache: string; answer: string };
}

test('the bundle runs as require() would run it; the next launch compiles from the cache it saved', withDirs(async (bundle, cacheDir) => {
  writeFileSync(bundle, bundleSource('first'));
  const cold = requireWithCodeCache(bundle, cacheDir);
  assert.equal(cold.cache, 'missing');
  const exports = cold.exports as Exports;
  assert.equal(exports.answer, 'first');
  assert.equal(exports.file, 'thing.bundle.cjs');
  assert.equal(typeof (await exports.loadOs()).cpus, 'function', 'an import() from inside the script reaches a real module loader');
  cold.saveCache();
  assert.equal(readdirSync(cacheDir).length, 1);
  assert.deepEqual(loadFresh(bundle, cacheDir), { cache: 'accepted', answer: 'first' });
}));

test('a rebuilt bundle of the same length never runs from the old cache, and its cache replaces the old one', withDirs((bundle, cacheDir) => {
  writeFileSync(bundle, bundleSource('first'));
  assert.deepEqual(loadFresh(bundle, cacheDir), { cache: 'missing', answer: 'first' });
  writeFileSync(bundle, bundleSource('other')); // same length: V8's own check would take the old cache
  utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
  assert.deepEqual(loadFresh(bundle, cacheDir), { cache: 'missing', answer: 'other' });
  assert.equal(readdirSync(cacheDir).length, 1, 'the old build\'s cache is removed');
  assert.deepEqual(loadFresh(bundle, cacheDir), { cache: 'accepted', answer: 'other' });
}));

test('a corrupt cache is rejected and rewritten; the bundle still loads', withDirs((bundle, cacheDir) => {
  writeFileSync(bundle, bundleSource('first'));
  loadFresh(bundle, cacheDir);
  const [name] = readdirSync(cacheDir);
  writeFileSync(join(cacheDir, name), 'not a code cache');
  assert.deepEqual(loadFresh(bundle, cacheDir), { cache: 'rejected', answer: 'first' });
  assert.deepEqual(loadFresh(bundle, cacheDir), { cache: 'accepted', answer: 'first' });
}));

test('a cache directory that cannot be created leaves the bundle loading without one', withDirs((bundle, cacheDir) => {
  writeFileSync(bundle, bundleSource('first'));
  writeFileSync(cacheDir, 'a file where the directory should be');
  const loaded = requireWithCodeCache(bundle, join(cacheDir, 'inside'));
  assert.equal((loaded.exports as Exports).answer, 'first');
  assert.doesNotThrow(() => loaded.saveCache());
  assert.deepEqual(loadFresh(bundle, join(cacheDir, 'inside')), { cache: 'missing', answer: 'first' });
}));

test('a cache write that fails after writing leaves no partial file behind', withDirs((bundle, cacheDir) => {
  writeFileSync(bundle, bundleSource('first'));
  const loaded = requireWithCodeCache(bundle, cacheDir);
  loaded.saveCache();
  const written = readdirSync(cacheDir);
  assert.equal(written.length, 1);
  // The cache's own name taken by a non-empty directory: the partial file is written, and the rename onto it fails.
  rmSync(join(cacheDir, written[0]!));
  mkdirSync(join(cacheDir, written[0]!, 'occupied'), { recursive: true });
  const again = requireWithCodeCache(bundle, cacheDir);
  again.saveCache();
  assert.deepEqual(readdirSync(cacheDir), [written[0]], 'only the directory in the way is left: no .partial file');
}));

test('importExternal, outside a vm script, imports as import() does', async () => {
  assert.equal(typeof (await importExternal<typeof import('node:os')>('node:os')).cpus, 'function');
});
