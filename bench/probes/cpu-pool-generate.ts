/** The bench's own load generation: the same datasets written one after another on this thread, or in parallel on a piscina pool. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { generateSequentially } from '../harness/datasets.js';
import type { DatasetName } from '../harness/flood-data.js';

const NAMES: DatasetName[] = ['ascii', 'sgr', 'unicode', 'cursor-motion'];

export default async function cpuPoolGenerate(args: { bytes: number; mode: 'sequential' | 'pool' }): Promise<{ ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-bench-gen-'));
  try {
    const requests = NAMES.map((name) => ({ name, bytes: args.bytes, path: join(dir, `${name}.txt`) }));
    if (args.mode === 'sequential') return { ms: generateSequentially(requests) };
    const pool = new Piscina({ filename: new URL('../harness/dataset-task.js', import.meta.url).href, maxThreads: requests.length });
    const started = performance.now();
    await Promise.all(requests.map((request) => pool.run(request)));
    const ms = performance.now() - started;
    await pool.destroy();
    return { ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
