import { test } from 'node:test';
import assert from 'node:assert/strict';
import { youngGenerationAfter } from '../../helpers/young-generation.js';

test('after a pane is closed, the main thread gives back the young generation a burst grew', async () => {
  const young = await youngGenerationAfter(`
    const pane = await coordinator.spawn({ argv: ['true'], kind: 'process' });
    await coordinator.exitPromise(pane.id);
    await coordinator.close(pane.id);
  `);
  assert.ok(young.grownMiB >= 8, `the young generation grew (${young.grownMiB} MiB)`);
  assert.ok(young.afterMiB <= young.grownMiB / 4, `it shrank from ${young.grownMiB} to ${young.afterMiB} MiB, ${Math.round(young.msAfterClose)} ms after the close`);
});
