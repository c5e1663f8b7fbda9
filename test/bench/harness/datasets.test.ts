import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The data directory is fixed when the module loads, from TMPDIR: point it at a fresh one first.
const scratch = mkdtempSync(join(tmpdir(), 'patterm-datasets-test-'));
process.env.TMPDIR = scratch;
const { DATA_DIR, ensureDatasets, key } = await import('../../../bench/harness/datasets.js');

const SMALL = 64 * 1024;

test('a dataset several scenarios ask for is generated once, on a machine that has none yet', async (t) => {
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  assert.ok(DATA_DIR.startsWith(scratch), `data dir ${DATA_DIR} should be under ${scratch}`);
  const logs: string[] = [];
  const requests = [
    { name: 'mixed' as const, bytes: SMALL },
    { name: 'ascii' as const, bytes: SMALL },
    { name: 'mixed' as const, bytes: SMALL },
    { name: 'mixed' as const, bytes: SMALL },
  ];
  const datasets = await ensureDatasets(requests, (line) => logs.push(line));

  assert.equal(datasets.size, 2);
  assert.match(logs.join('\n'), /generated 2 dataset\(s\)/);
  for (const name of ['mixed', 'ascii'] as const) {
    const dataset = datasets.get(key(name, SMALL));
    assert.ok(dataset, `${name} is in the result`);
    assert.equal(statSync(dataset.path).size, dataset.bytes);
    assert.ok(dataset.bytes > SMALL * 0.9, `${name} has about the requested size (${dataset.bytes} bytes)`);
  }
  assert.deepEqual(readdirSync(DATA_DIR).filter((file) => file.endsWith('.partial')), [], 'no partial file is left behind');

  // A second call finds them cached and generates nothing.
  const again: string[] = [];
  const cached = await ensureDatasets(requests, (line) => again.push(line));
  assert.equal(cached.size, 2);
  assert.deepEqual(again, []);
});
