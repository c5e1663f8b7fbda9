/**
 * The renderer's keystroke fast path: bytes written straight to a real pane's
 * PTY master, in order, surviving a full input buffer, and never written once
 * the pane has ended (the lease is revoked before the master can close).
 */
import { after, test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { DirectInput } from '../../../src/renderer/direct-input.js';
import { InputLease } from '../../../src/shared/input-lease.js';
import { BASH, BASH_ENV, eventually, startBash, useCoordinator } from '../../helpers/coordinator-fixture.js';

const encode = (text: string) => new TextEncoder().encode(text);
/** A worker thread's start on a loaded two-core machine: only a deadline, the wait ends at the worker's signal. */
const WORKER_START_TIMEOUT_MS = 30_000;

test('keys reach the program without the coordinator writing them', async () => {
  const coordinator = useCoordinator();
  const pane = await startBash(coordinator);
  const fallback: string[] = [];
  const input = new DirectInput((_paneId, bytes) => fallback.push(new TextDecoder().decode(bytes)));
  const channel = coordinator.directInput(pane.id);
  assert.ok(channel, 'a running pane offers direct input');
  input.setTarget(pane.id, channel);
  assert.equal(input.write(pane.id, encode('echo dire')), true);
  assert.equal(input.write(pane.id, encode('ct-$((6*7))\r')), true);
  const result = await coordinator.waitFor(pane.id, { pattern: '^direct-42$', timeoutMs: 10_000 });
  assert.equal(result.matched, true);
  assert.equal(input.write('some-other-pane', encode('x')), false, 'only the focused pane is written directly');
  assert.deepEqual(fallback, []);
});

test('input the PTY cannot take yet waits and goes through in order', async () => {
  const coordinator = useCoordinator();
  const dir = mkdtempSync(join(tmpdir(), 'patterm-direct-input-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const lines = Array.from({ length: 2000 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'abcdefghij'.repeat(6)}\n`).join('');
  // Raw mode so the kernel keeps every byte (and no CR before "DONE"); the program reads nothing for a second, so the input buffer fills up.
  const script = `stty raw -echo; echo READY; sleep 1; head -c ${lines.length} > "$0"; echo DONE`;
  const pane = await coordinator.spawn({ argv: ['sh', '-c', script, join(dir, 'got')], env: BASH_ENV, kind: 'process' });
  assert.equal((await coordinator.waitFor(pane.id, { pattern: '^READY$', timeoutMs: 10_000 })).matched, true);
  const input = new DirectInput(() => assert.fail('nothing should fall back while the pane runs'));
  input.setTarget(pane.id, coordinator.directInput(pane.id));
  const bytes = encode(lines); // ~150 KB: far more than a PTY buffers
  for (let at = 0; at < bytes.length; at += 1000) assert.equal(input.write(pane.id, bytes.subarray(at, at + 1000)), true);
  const done = await coordinator.waitFor(pane.id, { pattern: "DONE", timeoutMs: 30_000 });
  assert.equal(done.matched, true, JSON.stringify(done));
  assert.equal(readFileSync(join(dir, 'got'), 'utf8'), lines, 'every byte arrived, once, in order');
});

test('once the pane ends, the lease is revoked and input falls back instead of writing a closed (or reused) fd', async () => {
  const coordinator = useCoordinator();
  const pane = await coordinator.spawn({ argv: BASH, env: BASH_ENV, kind: 'process' });
  const channel = coordinator.directInput(pane.id)!;
  const lease = new InputLease(channel.lease);
  assert.equal(lease.isOpen, true);
  const fallback: number[] = [];
  const input = new DirectInput((_paneId, bytes) => fallback.push(bytes.length));
  input.setTarget(pane.id, channel);
  coordinator.write(pane.id, 'exit 3\r', 'user');
  await eventually(() => coordinator.info(pane.id).process.status === 'exited', { timeoutMs: 10_000, message: 'bash to exit' });
  assert.equal(lease.isOpen, false, 'revoked by the time the exit is reported');
  assert.equal(coordinator.directInput(pane.id), null);
  assert.equal(input.write(pane.id, encode('late')), false, 'the caller is told to use the slow path');
  assert.equal(lease.holding(() => 'wrote', 'closed'), 'closed');
});

test('a writer holding the lease on another thread delays revoke until it is done', async () => {
  const { Worker } = await import('node:worker_threads');
  const lease = InputLease.open();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  // The worker takes the lease, signals, and holds it until revoke has begun (the open flag drops),
  // then ~20 ms more (a stand-in for a slow write): so it still holds the lease however late this
  // thread wakes, and a revoke that did not wait would return while the flag still says 1.
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const cells = new Int32Array(workerData.lease); const flag = new Int32Array(workerData.flag);
     Atomics.add(cells, 1, 1);
     if (Atomics.load(cells, 0) === 1) {
       Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
       while (Atomics.load(cells, 0) === 1);
       const until = Date.now() + 20; while (Date.now() < until);
       Atomics.store(flag, 0, 2);
     }
     Atomics.sub(cells, 1, 1);`,
    { eval: true, workerData: { lease: lease.buffer, flag: flag.buffer } },
  );
  try {
    Atomics.wait(flag, 0, 0, WORKER_START_TIMEOUT_MS);
    assert.equal(Atomics.load(flag, 0), 1, 'the worker holds the lease');
    lease.revoke();
    assert.equal(Atomics.load(flag, 0), 2, 'revoke returned only after the write finished');
    assert.equal(lease.holding(() => 'wrote', 'closed'), 'closed');
  } finally {
    await worker.terminate(); // a worker still waiting for the revoke would spin on
  }
});

test('a writer that never lets go (its thread terminated mid-write) cannot hang revoke', () => {
  const lease = InputLease.open();
  Atomics.add(new Int32Array(lease.buffer), 1, 1); // a writer registered and then vanished
  const started = Date.now();
  lease.revoke();
  assert.ok(Date.now() - started < 2_000, `revoke returned after ${Date.now() - started} ms`);
  assert.equal(lease.isOpen, false);
});
