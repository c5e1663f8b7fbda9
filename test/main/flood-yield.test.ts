/**
 * Floods yield to interactive input (ParseScheduler.yielding, and InputPark in
 * the worker) but never stall:
 * with input arriving without a break for seconds, flooding panes still read
 * and parse everything, and once input stops they run at full speed again.
 * A stuck pause here would freeze a dev server's output for good.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { eventually, useCoordinator } from '../helpers/coordinator-fixture.js';
import { readStatFile } from '../../src/node/process-reaper.js';
import { YIELD_CYCLE_MS } from '../../src/shared/input-activity.js';

const FLOOD_NICE = 10;

const LINES = 150_000; // ~1 MB per pane: many parse turns, many yield windows

test('floods finish while input never stops, and after it stops', async () => {
  const coordinator = useCoordinator();
  const activity = coordinator.inputActivity;
  const flood = (name: string) => coordinator.spawn({ argv: ['sh', '-c', `seq 1 ${LINES}; echo ${name}-DONE; exec sleep 60`], kind: 'process', name });
  // Keys every 10 ms: one unbroken burst, so only the floods' share of each cycle is left to them.
  const typing = setInterval(() => activity.markInput(), 10);
  try {
    const panes = await Promise.all([flood('first'), flood('second')]);
    // Polled, not waited on: a pane someone waits on is exempt from yielding, and this must test the yield.
    await eventually(
      async () => {
        const grids = await Promise.all(panes.map((pane) => coordinator.grid(pane.id)));
        return grids.every((grid, i) => grid.lines.some((line) => line === `${panes[i].name}-DONE`));
      },
      { timeoutMs: 60_000, intervalMs: 100, message: 'both floods to finish while the user types' },
    );
  } finally {
    clearInterval(typing);
  }
  const after = await flood('third');
  await eventually(async () => (await coordinator.grid(after.id)).lines.includes('third-DONE'), { timeoutMs: 30_000, intervalMs: 100, message: 'a flood after the typing stopped' });
});

/** Threads of this process that sleep in futex(2): a worker parked by InputPark (Atomics.wait), where an idle one waits in epoll. */
const FUTEX_SYSCALL: Partial<Record<string, number>> = { x64: 202, arm64: 98 };

function sleepsInFutex(tid: number): boolean {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/syscall`, 'utf8').split(' ')[0]) === FUTEX_SYSCALL[process.arch];
  } catch {
    return false; // the thread is gone, or this system does not say
  }
}

const loweredThreads = () => readdirSync('/proc/self/task').map(Number).filter((tid) => readStatFile(`/proc/self/task/${tid}/stat`, tid)?.nice === FLOOD_NICE);

test(
  'an unwatched flood sleeps in mid-batch while the user types, a read wakes it, and it finishes once typing stops',
  { skip: (process.platform !== 'linux' || FUTEX_SYSCALL[process.arch] === undefined) && 'reads a thread\'s syscall from /proc (Linux x64 or arm64)' },
  async () => {
    const coordinator = useCoordinator();
    coordinator.workerNice = FLOOD_NICE; // tells the flood's worker thread apart from the others
    const activity = coordinator.inputActivity;
    const flood = await coordinator.spawn({ argv: ['sh', '-c', `seq 1 3000000; echo flood-DONE; exec sleep 60`], kind: 'process', name: 'flood' });
    await eventually(() => loweredThreads().length === 1, { message: 'the flood\'s worker to be lowered' });
    const [worker] = loweredThreads();
    // Keys every 5 ms: one unbroken burst, so the flood's worker sleeps through most of each cycle.
    const typing = setInterval(() => activity.markInput(), 5);
    try {
      let readAwake = false;
      for (let attempt = 0; attempt < 5 && !readAwake; attempt++) {
        // Seen asleep in a row: not a moment's lock inside V8.
        let asleep = 0;
        await eventually(() => (asleep = sleepsInFutex(worker) && activity.floodHoldMs() > 0 ? asleep + 1 : 0) >= 3, {
          timeoutMs: 30_000,
          intervalMs: 2,
          message: 'the flood\'s worker to sleep while the user types',
        });
        // A styled grid is read from the worker itself, never from the shared-memory mirror.
        const cycle = Math.floor(activity.sinceBurstStart() / YIELD_CYCLE_MS);
        const grid = await coordinator.grid(flood.id, undefined, true);
        assert.ok(grid.lines.some((line) => /^\d+$/.test(line)), 'the read shows the flood');
        // Asleep, the worker would have answered only once floods may run again: in the floods' share.
        readAwake = activity.floodHoldMs() > 0 && Math.floor(activity.sinceBurstStart() / YIELD_CYCLE_MS) === cycle;
      }
      assert.ok(readAwake, 'a read was answered while floods still held off: the pane woke its worker');
    } finally {
      clearInterval(typing);
    }
    await eventually(async () => (await coordinator.grid(flood.id)).lines.includes('flood-DONE'), { timeoutMs: 60_000, intervalMs: 100, message: 'the flood to finish once typing stopped' });
  },
);
