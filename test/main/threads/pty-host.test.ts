/**
 * The PTY host thread owns every PTY: its death must not hang or orphan
 * anything, input written by the coordinator goes straight to the master in
 * order, and a quiet pane's grid (read from the worker's mirror) is never
 * behind output the worker has parsed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../../src/node/process-reaper.js';
import { eventually, startBash, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { injectFault, useFaultInjection } from '../../helpers/fault-injection.js';

useFaultInjection();
const coordinator = useCoordinator();
const TIMEOUT = 15_000;

test('if the PTY host dies, every pane is reported killed, nothing is left running, and the next pane gets a fresh host', async () => {
  const shell = await startBash(coordinator);
  // Survives the hangup on its own: only the reaper's marker scan can end it.
  const stubborn = await coordinator.spawn({ argv: ['sh', '-c', "trap '' HUP; echo ready; exec sleep 300"], kind: 'process' });
  await coordinator.waitFor(stubborn.id, { pattern: '^ready$', timeoutMs: TIMEOUT });
  await injectFault({ target: 'pty-host', fault: 'crash' });
  for (const pane of [shell, stubborn]) {
    const exit = await coordinator.exitPromise(pane.id);
    assert.equal(exit.status, 'killed');
    await eventually(() => !isAlive(pane.process.pid), { message: `pid ${pane.process.pid} (${pane.name}) to be gone` });
  }
  const after = await startBash(coordinator);
  coordinator.write(after.id, 'echo fresh-host\r', 'user');
  assert.equal((await coordinator.waitFor(after.id, { pattern: '^fresh-host$', timeoutMs: TIMEOUT })).matched, true);
});

test('input from the coordinator reaches the program whole and in order, even when the PTY cannot take it all at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-pty-host-'));
  const out = join(dir, 'received');
  const chunks = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(3, '0')}:${'abcdefghijklmnopqrstuvwxyz'.repeat(i % 2 === 0 ? 200 : 1)};`);
  const expected = chunks.join('');
  // Raw mode, no echo, and a reader slower than the writer: most writes meet a full PTY input buffer.
  const pane = await coordinator.spawn({
    argv: ['sh', '-c', `stty raw -echo; echo ready; sleep 0.3; head -c ${expected.length} > '${out}'; echo received`],
    kind: 'process',
  });
  try {
    await coordinator.waitFor(pane.id, { pattern: '^ready$', timeoutMs: TIMEOUT });
    for (const chunk of chunks) coordinator.write(pane.id, chunk, 'orchestrator');
    await coordinator.waitFor(pane.id, { pattern: 'received', timeoutMs: TIMEOUT });
    assert.equal(readFileSync(out, 'utf8'), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
});

test('a grid read right after the worker parsed new output always shows it', async () => {
  const pane = await startBash(coordinator);
  for (let i = 0; i < 40; i++) {
    // Every few rounds, let the pane settle so its mirror is published and the next read races a fresh output.
    if (i % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 80));
    coordinator.write(pane.id, `echo mark-${i}\r`, 'user');
    await coordinator.waitFor(pane.id, { pattern: `^mark-${i}$`, timeoutMs: TIMEOUT });
    const grid = await coordinator.grid(pane.id);
    assert.ok(grid.lines.includes(`mark-${i}`), `round ${i}: the grid is behind the parsed output:\n${grid.lines.join('\n')}`);
  }
});

test('a child that exits at once is reported, even when its exit overtakes the reply to its spawn', async () => {
  // The host's events and its RPC replies travel on different ports, unordered with each other.
  const panes = await Promise.all(Array.from({ length: 40 }, (_, i) => coordinator.spawn({ argv: ['sh', '-c', `exit ${i % 5}`], kind: 'process' })));
  const exits = await Promise.all(
    panes.map((pane) => Promise.race([coordinator.exitPromise(pane.id), new Promise((_, reject) => setTimeout(() => reject(new Error(`${pane.name}: no exit reported`)), TIMEOUT))])),
  );
  assert.deepEqual(exits.map((exit) => (exit as { exitCode: number }).exitCode), panes.map((_, i) => i % 5));
});
