/**
 * Dataset files, generated once per machine into the temp dir and reused:
 * generation is deterministic, so a cached file is the same bytes.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GENERATOR_VERSION, type DatasetName } from './flood-data.js';
import writeDataset from './dataset-task.js';

export interface Dataset {
  name: DatasetName;
  path: string;
  bytes: number;
}

export const MIB = 1024 * 1024;
export const DATA_DIR = join(tmpdir(), 'patterm-bench-data');
const TASK_FILE = new URL('./dataset-task.js', import.meta.url).href;

export function datasetPath(name: DatasetName, bytes: number): string {
  return join(DATA_DIR, `${name}-v${GENERATOR_VERSION}-${bytes}.txt`);
}

function cached(name: DatasetName, bytes: number): Dataset | null {
  const path = datasetPath(name, bytes);
  return existsSync(path) ? { name, path, bytes: statSync(path).size } : null;
}

/** Makes sure every requested dataset exists, generating the missing ones on a piscina pool. */
export async function ensureDatasets(requests: { name: DatasetName; bytes: number }[], log: (line: string) => void): Promise<Map<string, Dataset>> {
  mkdirSync(DATA_DIR, { recursive: true });
  const out = new Map<string, Dataset>();
  // Scenarios share datasets (several use the same mixed file): each is generated once, not once per
  // request, or two pool threads would write the same file at once.
  const distinct = [...new Map(requests.map((request) => [key(request.name, request.bytes), request])).values()];
  const missing = distinct.filter((request) => {
    const hit = cached(request.name, request.bytes);
    if (hit) out.set(key(request.name, request.bytes), hit);
    return !hit;
  });
  if (missing.length === 0) return out;
  const started = performance.now();
  const pool = new Piscina({ filename: TASK_FILE, maxThreads: Math.min(missing.length, 4) });
  try {
    await Promise.all(
      missing.map(async (request) => {
        const path = datasetPath(request.name, request.bytes);
        const result = (await pool.run({ ...request, path })) as { bytes: number };
        out.set(key(request.name, request.bytes), { name: request.name, path, bytes: result.bytes });
      }),
    );
  } finally {
    await pool.destroy();
  }
  log(`generated ${missing.length} dataset(s) in ${DATA_DIR} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

export function key(name: DatasetName, bytes: number): string {
  return `${name}:${bytes}`;
}

/** The same work on the calling thread, one dataset after another: the comparison for the piscina figure. */
export function generateSequentially(requests: { name: DatasetName; bytes: number; path: string }[]): number {
  const started = performance.now();
  for (const request of requests) writeDataset(request);
  return performance.now() - started;
}
