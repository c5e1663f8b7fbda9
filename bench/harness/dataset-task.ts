/**
 * Piscina task: writes one generated dataset to disk. Generation is pure CPU
 * (string building and UTF-8 encoding), so the pool runs datasets in parallel
 * while the bench's main thread stays free.
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { generate, type DatasetName } from './flood-data.js';

export interface DatasetTask {
  name: DatasetName;
  bytes: number;
  path: string;
}

export default function writeDataset(task: DatasetTask): { bytes: number; ms: number } {
  const started = performance.now();
  // Pool threads share a pid: the thread id keeps two writers from ever sharing a partial file.
  const partial = `${task.path}.${process.pid}-${threadId}.partial`;
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
