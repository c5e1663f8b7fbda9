/**
 * Reading a real PTY into one reused buffer (reused-read-buffer.ts): every
 * byte arrives in order, in the same buffer each time, through the callback
 * alone, and a socket paused and resumed (flow control) reads on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import * as pty from 'node-pty';
import { readIntoReusedBuffer } from '../../src/workers/reused-read-buffer.js';
import { eventually } from '../helpers/coordinator-fixture.js';

const LINES = 200_000;
const TIMEOUT_MS = 30_000;
/** Bytes read before the test pauses the socket: well into the output (~1.3 MB), far from its end. */
const PAUSE_AFTER_BYTES = 256 * 1024;

function expectedOutput(): string {
  let text = '';
  for (let line = 1; line <= LINES; line++) text += `${line}\r\n`;
  return text;
}

test('a PTY read into a reused buffer delivers every byte in order, and reads on after a pause and resume', { timeout: 60_000 }, async () => {
  // It stays after its output: node-pty drops what is unread when a child exits (exit-drain.ts covers that).
  const child = pty.spawn('sh', ['-c', `seq 1 ${LINES}; exec sleep 60`], { cols: 80, rows: 24, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, encoding: null } as pty.IPtyForkOptions);
  const socket = (child as unknown as { _socket: Socket })._socket;
  const chunks: Buffer[] = [];
  const buffers = new Set<ArrayBuffer>();
  let events = 0;
  child.onData(() => events++);
  const installed = readIntoReusedBuffer(socket, (bytes) => {
    buffers.add(bytes.buffer as ArrayBuffer);
    chunks.push(Buffer.from(bytes)); // the view is valid only during the call
  });
  assert.equal(installed, true, "this Node's sockets can read into a caller's buffer");
  try {
    const received = () => chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const expected = expectedOutput();
    await eventually(() => received() >= PAUSE_AFTER_BYTES, { timeoutMs: TIMEOUT_MS, message: 'the first reads' });
    // Flow control pauses and resumes the socket (pty-lifecycle.ts): reading must start again.
    socket.pause();
    assert.ok(received() < expected.length, 'paused before the end of the output');
    socket.resume();
    await eventually(() => received() >= expected.length, { timeoutMs: TIMEOUT_MS, message: 'the whole output' });
    assert.equal(Buffer.concat(chunks).toString('latin1'), expected);
    assert.equal(buffers.size, 1, 'every read landed in the same buffer');
    assert.equal(events, 0, "no 'data' events: the reads go to the callback alone");
  } finally {
    child.kill();
  }
});
