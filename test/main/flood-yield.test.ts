/**
 * Floods yield to interactive input (ParseScheduler.yielding) but never stall:
 * with input arriving without a break for seconds, flooding panes still read
 * and parse everything, and once input stops they run at full speed again.
 * A stuck pause here would freeze a dev server's output for good.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useCoordinator } from '../helpers/coordinator-fixture.js';

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
