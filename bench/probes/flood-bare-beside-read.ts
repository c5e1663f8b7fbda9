/**
 * The bare parse again, with a PTY read of the same data running meanwhile in
 * another thread, as it must in any terminal that reads and parses at once
 * (node-pty reading, `cat` writing, the kernel's tty layer between them).
 * The bare-ghostty baseline parses with the second core idle; on this machine
 * a busy neighbour core slows a parse by itself (see the bench README), and
 * this figure shows by how much for a reader's load in particular.
 *
 * It parses a slice of the dataset, not all of it: MB/s does not depend on
 * the length, and the bench's time budget does.
 */
import { Worker } from 'node:worker_threads';
import type { PtyReaderMessage } from '../harness/pty-reader-worker.js';
import { mainThreadCpuMs } from '../harness/process-tree.js';
import { fencedPtyBytes, parseBare, type BareParse } from './flood-bare-ghostty.js';

/** ~0.6 s of parse: long next to the reader's start-up, short next to the bench's budget. */
const PARSE_SLICE_BYTES = 24 * 1024 * 1024;

export default async function floodBareBesideRead(args: { path: string }): Promise<BareParse & { readBytes: number }> {
  const slice = fencedPtyBytes(args.path, PARSE_SLICE_BYTES);
  const reader = new Worker(new URL('../harness/pty-reader-worker.js', import.meta.url), { workerData: { path: args.path } });
  const exited = new Promise<void>((resolve) => reader.once('exit', () => resolve()));
  const next = () =>
    new Promise<PtyReaderMessage>((resolve, reject) => {
      reader.once('message', resolve);
      reader.once('error', reject);
    });
  await next(); // reading
  const cpuBefore = mainThreadCpuMs();
  const parse = await parseBare(slice);
  // process.cpuUsage() would count the reader thread too: this thread's own time only.
  const cpuMs = mainThreadCpuMs() - cpuBefore;
  reader.postMessage('stop');
  const stopped = await next();
  await exited;
  return { ...parse, cpuMs, readBytes: stopped.t === 'stopped' ? stopped.bytes : 0 };
}

