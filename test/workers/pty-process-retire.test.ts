/**
 * A PtyProcess leaves the parse scheduler for good when it is destroyed: a
 * child that outlives the hangup and keeps writing must not queue it again,
 * or it would take turns from live floods with nobody left to parse them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { InputActivity } from '../../src/shared/input-activity.js';
import { ParseScheduler, TURN_QUANTUM_BYTES, type ParseClient } from '../../src/workers/flood/parse-scheduler.js';
import type { OutputSink } from '../../src/workers/output-sink.js';
import { PtyProcess } from '../../src/workers/pty-process.js';
import { eventually } from '../helpers/coordinator-fixture.js';
import { testSpawnOptions } from '../helpers/pty-spawn-options.js';

const TIMEOUT = 15_000;

/** Bytes the process has written (wchar in /proc/<pid>/io). */
function bytesWritten(pid: number): number {
  const match = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  assert.ok(match, `wchar in /proc/${pid}/io`);
  return Number(match[1]);
}

test('a destroyed PTY whose child ignores the hangup and floods on never asks for a parse turn again', async () => {
  const scheduler = new ParseScheduler(1, new InputActivity());
  let destroyed = false;
  let turnsAskedAfterDestroy = 0;
  const acquire = scheduler.acquire.bind(scheduler);
  scheduler.acquire = (client: ParseClient) => {
    if (destroyed) turnsAskedAfterDestroy++;
    return acquire(client);
  };
  let delivered = 0;
  const sink: OutputSink = {
    deliver: (bytes) => void (delivered += bytes.length),
    deferredBytes: () => 0,
    announceDeferred: () => undefined,
    // After the hangup there is never room: output piles up in the process, as it does for a flood.
    batchBuffer: (size) => (destroyed ? null : new Uint8Array(size)),
    skim: (front) => void (delivered += front.length),
    atPlainBoundary: () => false,
  };
  const proc = PtyProcess.spawn(
    testSpawnOptions(['sh', '-c', "trap '' HUP; exec yes"], 'pty-process-retire-test'),
    sink,
    scheduler,
  );
  try {
    // Nobody parses: every byte counts as parsed once delivered, so the window never closes.
    proc.dropConsumer();
    await eventually(() => delivered > TURN_QUANTUM_BYTES, { timeoutMs: TIMEOUT, message: 'the flood to be delivered' });
    destroyed = true;
    proc.destroy();
    // More than the kernel buffers after the hangup: the process has read far past INTERACTIVE_BYTES, which needs a turn.
    const before = bytesWritten(proc.pid);
    await eventually(() => bytesWritten(proc.pid) - before > TURN_QUANTUM_BYTES / 2, { timeoutMs: TIMEOUT, message: 'the child to write on after the hangup' });
    // The flush that read scheduled (one macrotask of coalescing) runs before this.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(turnsAskedAfterDestroy, 0, 'no parse turn was asked for after destroy');
  } finally {
    await proc.kill('SIGKILL', 0);
  }
});
