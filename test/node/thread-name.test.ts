import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { PANE_WORKER_THREAD_NAME, PTY_HOST_THREAD_NAME } from '../../src/node/thread-name.js';
import { eventually, useCoordinator } from '../helpers/coordinator-fixture.js';

function threadNames(): string[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

test('the PTY host and each pane worker name their threads, so per-thread tools can tell them apart', { skip: process.platform !== 'linux' }, async () => {
  const coordinator = useCoordinator();
  const pane = await coordinator.spawn({ argv: ['sleep', '30'], kind: 'process' });
  await coordinator.idleState(pane.id); // answered by the pane's worker: it is running
  const names = threadNames();
  // Threads a named thread starts take its name: node-pty waits for each child's exit on a thread of its own.
  assert.ok(names.includes(PTY_HOST_THREAD_NAME), `a PTY host thread among ${names.join(', ')}`);
  assert.ok(names.includes(PANE_WORKER_THREAD_NAME), `a pane worker thread among ${names.join(', ')}`);
});
