/**
 * The exit fence on its own, against a FIFO standing in for the slave side:
 * whatever is written to the "slave" comes out of the read end, as a PTY's
 * slave output comes out of its master.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitDrain } from '../../src/workers/exit-drain.js';

function withFifo(run: (path: string, readEnd: number) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-exit-drain-'));
  const path = join(dir, 'slave');
  execFileSync('mkfifo', [path]);
  const readEnd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    run(path, readEnd);
  } finally {
    closeSync(readEnd);
    rmSync(dir, { recursive: true, force: true });
  }
}

function readAll(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65536);
  for (;;) {
    let count: number;
    try {
      count = readSync(fd, buffer);
    } catch {
      break; // EAGAIN: empty
    }
    if (count === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
  return Buffer.concat(chunks);
}

test('output up to the marker passes once, a marker split across reads is found, and the slave is let go', () => {
  withFifo((path, readEnd) => {
    const drain = ExitDrain.hold(path);
    assert.ok(drain, 'the slave opens');
    assert.equal(drain.holding, true);
    assert.equal(drain.draining, false);
    assert.deepEqual(drain.filter(Buffer.from('before exit ')), Buffer.from('before exit '), 'not draining: everything passes');
    drain.start();
    assert.equal(drain.draining, true);
    const marker = readAll(readEnd);
    assert.match(marker.toString('latin1'), /^\x1b_patterm-drain-[0-9a-f]{16}\x1b\\$/);
    // The child's last bytes, then the marker cut in three: what passes must be exactly the child's bytes.
    const tail = Buffer.concat([Buffer.from('last words'), marker, Buffer.from('after')]);
    const cuts = [4, 10 + 5, 10 + marker.length - 2];
    const passed = [drain.filter(tail.subarray(0, cuts[0])), drain.filter(tail.subarray(cuts[0], cuts[1])), drain.filter(tail.subarray(cuts[1], cuts[2])), drain.filter(tail.subarray(cuts[2]))];
    assert.equal(Buffer.concat(passed).toString(), 'last words');
    assert.equal(drain.draining, false, 'the marker arrived');
    assert.equal(drain.holding, false, 'the slave was released');
  });
});

test('a slave that will not take the marker releases at once and holds nothing back', () => {
  withFifo((path) => {
    const drain = ExitDrain.hold(path);
    assert.ok(drain);
    // Fill the slave's buffer, as a child's last burst can before flow control lets the reader go on.
    const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      for (;;) writeSync(writer, Buffer.alloc(4096, 0x41));
    } catch {
      // EAGAIN: full
    } finally {
      closeSync(writer);
    }
    drain.start();
    assert.equal(drain.draining, false, 'no marker is on its way');
    assert.equal(drain.holding, false, 'the hold is released, so the stream can end');
    assert.equal(drain.filter(Buffer.from('the last line\n')).toString(), 'the last line\n', 'nothing is held back for a marker that never comes');
  });
});

test('a slave that cannot be opened means nothing to hold', () => {
  assert.equal(ExitDrain.hold('/nonexistent/pts/99'), null);
});

test('a stream that ends before the marker comes hands on what was held back as a possible marker start', () => {
  withFifo((path) => {
    const drain = ExitDrain.hold(path);
    assert.ok(drain);
    drain.start();
    const output = Buffer.from('Session fake\n  \u2713 fake (agent fake): resumed\n\n2 of 2 back, 0 not.\n');
    const passed = drain.filter(output);
    assert.ok(passed.length < output.length, 'the tail waits for the marker');
    // node-pty gave up on the stream: the held tail is the child's, not the marker's.
    assert.equal(Buffer.concat([passed, drain.takeHeld()]).toString(), output.toString());
    assert.equal(drain.draining, false);
    assert.equal(drain.takeHeld().length, 0, 'handed on once');
    drain.release();
  });
});
