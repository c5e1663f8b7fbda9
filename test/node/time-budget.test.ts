/** Synchronous work under a wall-time limit: stopped mid-way when it runs over, retried when asked, errors passed on. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withinBudget } from '../../src/node/time-budget.js';

test('work that finishes in time returns its value', () => {
  assert.deepEqual(withinBudget(1000, () => 6 * 7, 1), { ok: true, value: 42 });
});

test('work that never ends is stopped at its budget, and the thread goes on', () => {
  const started = performance.now();
  const outcome = withinBudget(
    50,
    () => {
      for (;;) {
        // spins until V8 interrupts it
      }
    },
    1,
  );
  assert.deepEqual(outcome, { ok: false });
  assert.ok(performance.now() - started < 30_000, 'it was stopped, not waited out');
  assert.deepEqual(withinBudget(1000, () => 'after', 1), { ok: true, value: 'after' }, 'the next run works');
});

test('a catastrophic regex is interrupted as plain JavaScript is', () => {
  assert.deepEqual(withinBudget(50, () => /(a+)+$/.test(`${'a'.repeat(40)}!`), 1), { ok: false });
});

test('each attempt gets the whole budget again; work that only overran once succeeds on a retry', () => {
  let calls = 0;
  const outcome = withinBudget(
    50,
    () => {
      calls++;
      if (calls === 1) for (;;);
      return calls;
    },
    3,
  );
  assert.deepEqual(outcome, { ok: true, value: 2 });
});

test('an error the work throws is not a timeout: it reaches the caller, on the first attempt', () => {
  let calls = 0;
  assert.throws(
    () =>
      withinBudget(
        1000,
        () => {
          calls++;
          throw new RangeError('bad input');
        },
        3,
      ),
    RangeError,
  );
  assert.equal(calls, 1);
});
