/**
 * Input written to a descriptor another thread owns: in order, retried while
 * the kernel will not take it, held while the lease is held, never written
 * once the lease is revoked, and handed back in order after a write error.
 * A non-blocking FIFO stands in for a PTY master: its buffer fills as a
 * master's does when the program does not read.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { LeasedWriter } from '../../src/node/leased-writer.js';
import { shareRunLog } from '../../src/node/patterm-log.js';
import { WarningCounter } from '../../src/node/warning-counter.js';
import { InputLease } from '../../src/shared/input-lease.js';
import { scratchDir } from '../helpers/scratch-dir.js';
import { eventually } from '../helpers/coordinator-fixture.js';

const dir = scratchDir('patterm-leased-writer-');
const opened: number[] = [];
after(() => opened.forEach((fd) => closeSync(fd)));

function fifo(name: string): { writeFd: number; readFd: number } {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  // Read-write on the writer's side: it opens without a reader, and never sees EPIPE.
  const writeFd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  opened.push(writeFd, readFd);
  return { writeFd, readFd };
}

/** Whatever the FIFO holds now. */
function drain(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    try {
      const n = readSync(fd, buffer);
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
  }
  return Buffer.concat(chunks).toString('latin1');
}

const bytes = (text: string) => Buffer.from(text, 'latin1');

test('what the kernel will not take yet waits, in order, and goes as the reader makes room', async () => {
  const { writeFd, readFd } = fifo('full');
  const lease = InputLease.open();
  const writer = new LeasedWriter({ fd: writeFd, lease: lease.buffer }, 'pane test', () => assert.fail('no write error expected'));
  // More than a pipe's buffer: the tail must wait for the reader.
  const big = 'a'.repeat(200 * 1024);
  assert.equal(writer.write(bytes(big)), true);
  assert.equal(writer.write(bytes('|then this')), true);
  let received = '';
  await eventually(
    () => {
      received += drain(readFd);
      return received.length === big.length + '|then this'.length;
    },
    { timeoutMs: 15_000, message: 'every byte to arrive' },
  );
  assert.equal(received, `${big}|then this`);
});

test('while the lease is held, input waits; after release it goes, in order', async () => {
  const { writeFd, readFd } = fifo('held');
  const lease = InputLease.open();
  const writer = new LeasedWriter({ fd: writeFd, lease: lease.buffer }, 'pane test', () => assert.fail('no write error expected'));
  lease.hold();
  writer.write(bytes('typed after a resize'));
  assert.equal(drain(readFd), '', 'nothing is written while held');
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(drain(readFd), '', 'nor by the retries that follow');
  lease.release();
  let received = '';
  await eventually(() => (received += drain(readFd)) === 'typed after a resize', { timeoutMs: 15_000, message: 'the held input' });
});

test('once the lease is revoked nothing is written, and the writer says so', () => {
  const { writeFd, readFd } = fifo('revoked');
  const lease = InputLease.open();
  const writer = new LeasedWriter({ fd: writeFd, lease: lease.buffer }, 'pane test', () => assert.fail('no write error expected'));
  lease.revoke();
  assert.equal(writer.leaseOpen, false);
  assert.equal(writer.write(bytes('too late')), false);
  assert.equal(drain(readFd), '');
});

test('a write error stops the writer, hands back what it held in order, and logs a warning naming the pane', async () => {
  const logDir = scratchDir('patterm-leased-writer-log-');
  const saved = process.env.PATTERM_LOG;
  process.env.PATTERM_LOG = join(logDir, 'log');
  const counter = new WarningCounter();
  shareRunLog({ path: null, warnings: counter.buffer });
  try {
    // Read-only: every write fails with EBADF, as a write to a broken master fails.
    const { readFd } = fifo('broken');
    const handedBack: string[] = [];
    const lease = InputLease.open();
    const writer = new LeasedWriter({ fd: readFd, lease: lease.buffer }, 'pane p7', (chunks) => handedBack.push(...chunks.map((chunk) => Buffer.from(chunk).toString('latin1'))));
    lease.hold(); // queue two writes first, so both are handed back
    writer.write(bytes('first'));
    writer.write(bytes('second'));
    lease.release();
    await eventually(() => handedBack.length === 2, { timeoutMs: 15_000, message: 'the input handed back' });
    assert.deepEqual(handedBack, ['first', 'second']);
    assert.equal(writer.write(bytes('third')), false, 'a broken writer takes no more: the caller sends it another way');
    assert.match(readFileSync(join(logDir, 'log'), 'utf8'), / warn \[thread \d+\] writing input to pane p7's PTY master \(fd \d+\); this writer stops, and its input goes the slow way: EBADF/);
    assert.equal(counter.count, 1);
  } finally {
    shareRunLog(undefined);
    if (saved === undefined) delete process.env.PATTERM_LOG;
    else process.env.PATTERM_LOG = saved;
  }
});
