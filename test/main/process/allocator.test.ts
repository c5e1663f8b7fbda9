import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrimSchedule } from '../../../src/main/process/allocator.js';
import { eventually } from '../../helpers/coordinator-fixture.js';

test('a burst of pane endings gets one prompt trim and one late trim, not one per ending', async () => {
  let trims = 0;
  const schedule = new TrimSchedule([10, 60], () => trims++);
  for (let ending = 0; ending < 50; ending++) schedule.paneEnded();
  assert.equal(schedule.pending, 2);
  await eventually(() => schedule.pending === 0);
  assert.equal(trims, 2);
});

test('an ending between the prompt and the late trim puts the late one back, not beside it', async () => {
  let trims = 0;
  const schedule = new TrimSchedule([10, 60_000], () => trims++);
  schedule.paneEnded();
  await eventually(() => trims === 1);
  assert.equal(schedule.pending, 1, 'the late trim waits');
  schedule.paneEnded();
  assert.equal(schedule.pending, 2, 'one prompt and one late trim, the first late one cancelled');
  await eventually(() => trims === 2);
  assert.equal(schedule.pending, 1);
});
