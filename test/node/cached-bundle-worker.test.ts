/**
 * A worker started through cached-bundle-worker.ts runs its bundle as if it
 * had been started itself, compiles it from the code cache once one was
 * saved, and still runs when the cache is corrupt. The pane worker starts
 * this way: a real pane leaves its bundle's cache behind for the next.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { bundleUrl } from '../../src/main/bundles.js';
import { Coordinator } from '../../src/main/coordinator.js';
import { CACHED_BUNDLE_DATA } from '../../src/node/worker-code-cache.js';
import { eventually } from '../helpers/coordinator-fixture.js';

/**
 * A bundle-like CommonJS worker: it answers with what it was given and how it
 * compiled, and saves its cache when asked. It reaches the loader's link by its
 * global slot, as a bundle's copy of worker-code-cache.ts does.
 */
const BUNDLE_SOURCE = `
  const { parentPort, workerData } = require('node:worker_threads');
  const link = globalThis[Symbol.for('patterm.workerCodeCache')];
  function answer() { return workerData.question * 2; }
  parentPort.on('message', (message) => {
    if (message !== 'save') return;
    link.saveCache();
    parentPort.postMessage('saved');
  });
  parentPort.postMessage({ answer: answer(), cache: link.cache });
`;

interface Reply {
  answer: number;
  cache: string;
}

/** Starts the bundle through the loader; resolves with its first message and the worker. */
async function start(bundle: string, cacheDir: string): Promise<{ reply: Reply; worker: Worker }> {
  const worker = new Worker(bundleUrl('node/cached-bundle-worker'), { workerData: { question: 21, [CACHED_BUNDLE_DATA]: { bundle, cacheDir } } });
  const reply = await new Promise<Reply>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { reply, worker };
}

function scratch(): { root: string; bundle: string; cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'patterm-cached-worker-'));
  const bundle = join(root, 'thing.bundle.cjs');
  writeFileSync(bundle, BUNDLE_SOURCE);
  return { root, bundle, cacheDir: join(root, 'cache') };
}

const cacheFiles = (cacheDir: string) => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache')) : []);

test('the bundle runs with its workerData, and compiles from the cache it saved', async () => {
  const { root, bundle, cacheDir } = scratch();
  try {
    const first = await start(bundle, cacheDir);
    assert.deepEqual(first.reply, { answer: 42, cache: 'missing' });
    assert.deepEqual(cacheFiles(cacheDir), [], 'nothing is written before the bundle asks');
    first.worker.postMessage('save');
    await new Promise((resolve) => first.worker.once('message', resolve));
    await first.worker.terminate();
    assert.equal(cacheFiles(cacheDir).length, 1);

    const second = await start(bundle, cacheDir);
    assert.deepEqual(second.reply, { answer: 42, cache: 'accepted' });
    await second.worker.terminate();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a corrupt cache is rejected, the bundle runs all the same, and its save replaces the cache', async () => {
  const { root, bundle, cacheDir } = scratch();
  try {
    const first = await start(bundle, cacheDir);
    first.worker.postMessage('save');
    await new Promise((resolve) => first.worker.once('message', resolve));
    await first.worker.terminate();
    const [name] = cacheFiles(cacheDir);
    const garbage = Buffer.alloc(statSync(join(cacheDir, name)).size, 0x5a);
    writeFileSync(join(cacheDir, name), garbage);

    const second = await start(bundle, cacheDir);
    assert.deepEqual(second.reply, { answer: 42, cache: 'rejected' });
    second.worker.postMessage('save');
    await new Promise((resolve) => second.worker.once('message', resolve));
    await second.worker.terminate();
    assert.notDeepEqual(readFileSync(join(cacheDir, name)), garbage, 'the rejected cache was written again');
    assert.deepEqual(cacheFiles(cacheDir), [name]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a pane's worker leaves its bundle's code cache behind once it has shown output", async () => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-pane-cache-'));
  const previous = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = root;
  const coordinator = new Coordinator();
  try {
    const pane = await coordinator.spawn({ argv: ['bash', '-c', 'echo cached-$((20+22)); exec cat'], kind: 'process', name: 'cached' });
    await eventually(async () => (await coordinator.grid(pane.id)).lines.includes('cached-42'), { message: 'the pane to show its output' });
    const cacheDir = join(root, 'patterm', 'code-cache');
    await eventually(() => cacheFiles(cacheDir).some((name) => name.startsWith('pane-worker.bundle.cjs.')), { message: "the pane worker's code cache" });
  } finally {
    await coordinator.shutdown(500);
    if (previous === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previous;
    rmSync(root, { recursive: true, force: true });
  }
});
