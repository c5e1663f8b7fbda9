/**
 * A fast exit's last output reaches the pane even when the PTY host thread is
 * held up past node-pty's own wait for the stream's end: the exit drain's
 * marker, not a clock, says when the stream is over.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputActivity } from '../../src/shared/input-activity.js';
import { ParseScheduler } from '../../src/workers/flood/parse-scheduler.js';
import type { OutputSink } from '../../src/workers/output-sink.js';
import { PtyProcess } from '../../src/workers/pty-process.js';
import { testSpawnOptions } from '../helpers/pty-spawn-options.js';

const TIMEOUT_MS = 15_000;
/** Longer than node-pty waits for the stream to close after an exit (DESTROY_SOCKET_TIMEOUT_MS in its unixTerminal.js). */
const STALL_MS = 600;

function busyWait(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

test('output still unread when the exit is reported is delivered whole, however long the thread is held up then', async () => {
  const lines = Array.from({ length: 40 }, (_, i) => `summary line ${i}`).concat(['2 of 2 back, 0 not.']);
  let received = '';
  const sink: OutputSink = {
    deliver: (bytes) => void (received += Buffer.from(bytes).toString()),
    deferredBytes: () => 0,
    announceDeferred: () => undefined,
    batchBuffer: (size) => new Uint8Array(size),
    skim: (front) => void (received += Buffer.from(front).toString()),
    atPlainBoundary: () => false,
  };
  // The child waits for a line on its input, so reading can be paused first: its output then waits in the kernel.
  const proc = PtyProcess.spawn(testSpawnOptions(['sh', '-c', `read go; printf '%s\\n' ${lines.map((line) => `'${line}'`).join(' ')}`], 'pty-exit-tail-test'), sink, new ParseScheduler(1, new InputActivity()));
  proc.dropConsumer();
  const internals = proc as unknown as { life: { pause(): void; pty: { _socket: NodeJS.EventEmitter } } };
  // Once node-pty has the exit (it then waits on the stream's close, and our drain starts), hold the thread up.
  internals.life.pty._socket.on('newListener', (event: string) => {
    if (event === 'close') setImmediate(() => busyWait(STALL_MS));
  });
  const exited = new Promise((resolve) => proc.onExit(resolve));
  await new Promise((resolve) => setTimeout(resolve, 200)); // sh is at its read (the echo of what we type comes back before it prints)
  internals.life.pause();
  proc.write('go\r');
  const timeout = setTimeout(() => assert.fail('the exit was never reported'), TIMEOUT_MS);
  await exited;
  clearTimeout(timeout);
  assert.ok(received.includes('2 of 2 back, 0 not.\r\n'), `the last line arrived: ${JSON.stringify(received.slice(-120))}`);
  for (const line of lines) assert.ok(received.includes(`${line}\r\n`), `${line} arrived`);
});
