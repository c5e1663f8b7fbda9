/**
 * Piscina task: writes one generated dataset to disk. Generation is pure CPU
 * (string building and UTF-8 encoding), so the pool runs datasets in parallel
 * while the bench's main thread stays free.
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { generate, type DatasetName } from './flood-data.js';

export interface DatasetTask {
  name: DatasetName;
  bytes: number;
  path: string;
}

export default function writeDataset(task: DatasetTask): { bytes: number; ms: number } {
  const started = performance.now();
  const partial = `${task.path}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  let written = 0;
  try {
    for (const chunk of generate(task.name, task.bytes)) written += writeSync(fd, Buffer.from(chunk, 'utf8'));
  } finally {
    closeSync(fd);
  }
  renameSync(partial, task.path); // atomic: a crashed run never leaves a short file under the real name
  return { bytes: written, ms: performance.now() - started };
}
