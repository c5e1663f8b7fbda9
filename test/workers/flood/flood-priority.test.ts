/**
 * Only a pane that floods while nobody watches it gets its worker thread's
 * priority lowered; quiet panes keep theirs, and watching a flooding pane
 * gives it back where the system permits (root here; RLIMIT_NICE elsewhere).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { readStatFile } from '../../../src/node/process-reaper.js';
import { eventually, startBash, useCoordinator } from '../../helpers/coordinator-fixture.js';

const FLOOD_NICE = 10;

/** Nice values of this process's threads. */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((tid) => readStatFile(`/proc/self/task/${tid}/stat`, Number(tid))?.nice ?? 0);
}

const lowered = () => threadNices().filter((nice) => nice === FLOOD_NICE).length;

test('an unwatched flood lowers its own worker only; watching it restores it', { skip: process.platform !== 'linux' && 'thread priorities are per thread only on Linux' }, async () => {
  const coordinator = useCoordinator();
  coordinator.workerNice = FLOOD_NICE;
  assert.equal(lowered(), 0);
  const quiet = await startBash(coordinator);
  coordinator.write(quiet.id, 'echo still quiet\r', 'user');
  const flood = await coordinator.spawn({ argv: ['yes', 'a flood of lines'], kind: 'process' });
  await eventually(() => lowered() === 1, { message: 'the flooding pane\'s worker to be lowered' });
  coordinator.write(quiet.id, 'seq 1 200\r', 'user'); // a burst, well under a flood
  assert.equal((await coordinator.waitFor(quiet.id, { pattern: '^200$', timeoutMs: 10_000 })).matched, true);
  assert.equal(lowered(), 1, 'the quiet pane\'s worker kept its priority');

  const { port1, port2 } = new MessageChannel();
  port1.on('message', () => undefined);
  coordinator.attachFrameSink(flood.id, port2);
  if (process.getuid?.() === 0) await eventually(() => lowered() === 0, { message: 'the watched pane\'s worker to get its priority back' });
  port1.close();
  await coordinator.kill(flood.id);
});
