import { test } from 'node:test';
import assert from 'node:assert/strict';
import { youngGenerationAfter } from '../helpers/young-generation.js';

test('the native addon asks V8 for memory back: a grown young generation shrinks', async () => {
  const young = await youngGenerationAfter('nativeAddon().notifyMemoryPressure();');
  assert.ok(young.grownMiB >= 8, `the young generation grew (${young.grownMiB} MiB)`);
  assert.ok(young.afterMiB <= young.grownMiB / 4, `it shrank from ${young.grownMiB} to ${young.afterMiB} MiB`);
});
