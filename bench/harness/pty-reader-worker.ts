/**
 * A worker thread that floods a PTY with a dataset, over and over, and reads
 * it with node-pty (`encoding: null`), dropping the bytes: the reading half of
 * a terminal, run beside a parse to load the machine as a terminal does.
 * Posts 'reading' at the first bytes; on 'stop' it kills the child and posts
 * the bytes it read.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as pty from 'node-pty';
import { PANE } from './fence.js';

export type PtyReaderMessage = { t: 'reading' } | { t: 'stopped'; bytes: number };

const { path } = workerData as { path: string };
const child = pty.spawn('bash', ['--norc', '--noprofile', '-c', 'while :; do cat -- "$1"; done', 'reader', path], {
  ...PANE,
  name: 'xterm-256color',
  encoding: null,
} as pty.IPtyForkOptions);
let bytes = 0;
child.onData((data) => {
  if (bytes === 0) parentPort!.postMessage({ t: 'reading' } satisfies PtyReaderMessage);
  bytes += (data as unknown as Buffer).length;
});
// The thread ends by itself once the child is reaped: terminating it while
// node-pty still has a callback pending aborts the whole process.
child.onExit(() => {
  parentPort!.postMessage({ t: 'stopped', bytes } satisfies PtyReaderMessage);
  parentPort!.close();
});
parentPort!.on('message', () => child.kill('SIGKILL'));
