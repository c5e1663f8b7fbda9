import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AfterBurstSchedule } from '../../src/node/after-burst-schedule.js';
import { eventually } from '../helpers/coordinator-fixture.js';

test('a burst of pane endings runs each step once, not once per ending', async () => {
  let prompt = 0;
  let late = 0;
  const schedule = new AfterBurstSchedule([{ delayMs: 10, run: () => prompt++ }, { delayMs: 60, run: () => late++ }]);
  for (let ending = 0; ending < 50; ending++) schedule.paneEnded();
  assert.equal(schedule.pending, 2);
  await eventually(() => schedule.pending === 0);
  assert.deepEqual([prompt, late], [1, 1]);
});

test('an ending between the prompt and the late step puts the late one back, not beside it', async () => {
  let runs = 0;
  const schedule = new AfterBurstSchedule([{ delayMs: 10, run: () => runs++ }, { delayMs: 60_000, run: () => runs++ }]);
  schedule.paneEnded();
  await eventually(() => runs === 1);
  assert.equal(schedule.pending, 1, 'the late step waits');
  schedule.paneEnded();
  assert.equal(schedule.pending, 2, 'one prompt and one late step, the first late one cancelled');
  await eventually(() => runs === 2);
  assert.equal(schedule.pending, 1);
});
