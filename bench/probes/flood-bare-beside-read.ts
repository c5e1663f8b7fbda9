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
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { PtyReaderMessage } from '../harness/pty-reader-worker.js';
import { DSR_QUERY } from '../harness/fence.js';
import { fencedPtyBytes, parseBare, type BareParse } from './flood-bare-ghostty.js';

/** ~0.6 s of parse: long next to the reader's start-up, short next to the bench's budget. */
const PARSE_SLICE_BYTES = 24 * 1024 * 1024;

export default async function floodBareBesideRead(args: { path: string }): Promise<BareParse & { readBytes: number }> {
  const data = fencedPtyBytes(args.path);
  const slice = new Uint8Array(Math.min(PARSE_SLICE_BYTES, data.length - DSR_QUERY.length) + DSR_QUERY.length);
  slice.set(data.subarray(0, slice.length - DSR_QUERY.length));
  slice.set(data.subarray(data.length - DSR_QUERY.length), slice.length - DSR_QUERY.length);
  const reader = new Worker(new URL('../harness/pty-reader-worker.js', import.meta.url), { workerData: { path: args.path } });
  const exited = new Promise<void>((resolve) => reader.once('exit', () => resolve()));
  const next = () =>
    new Promise<PtyReaderMessage>((resolve, reject) => {
      reader.once('message', resolve);
      reader.once('error', reject);
    });
  await next(); // reading
  const cpuBefore = threadCpuMs();
  const parse = await parseBare(slice);
  // process.cpuUsage() would count the reader thread too: this thread's own time only.
  const cpuMs = threadCpuMs() - cpuBefore;
  reader.postMessage('stop');
  const stopped = await next();
  await exited;
  return { ...parse, cpuMs, readBytes: stopped.t === 'stopped' ? stopped.bytes : 0 };
}

/** CPU time of this (the main) thread, from /proc: its task id is the process id. */
function threadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in USER_HZ ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
