import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchWithinBudget } from '../../src/node/regex-budget.js';

test('a match within the budget gives its value; one past it is stopped and explained; other errors pass through', () => {
  assert.deepEqual(matchWithinBudget(250, () => /ready/.test('server ready')), { ok: true, value: true });
  const started = performance.now();
  const stopped = matchWithinBudget(100, () => /^(a+)+$/i.test(`${'a'.repeat(40)}!`));
  assert.equal(stopped.ok, false);
  assert.match(stopped.ok ? '' : stopped.problem, /took longer than 100 ms and was stopped/);
  assert.ok(performance.now() - started < 60_000, 'stopped, not run to the end (days)');
  assert.throws(() => matchWithinBudget(100, () => { throw new RangeError('not a timeout'); }), RangeError);
  // The thread is usable afterwards.
  assert.deepEqual(matchWithinBudget(100, () => 'after'), { ok: true, value: 'after' });
});
