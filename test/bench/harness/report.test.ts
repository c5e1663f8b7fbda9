import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRows, judge } from '../../../bench/harness/report.js';
import type { Sample, Target } from '../../../bench/harness/scenario.js';

const ratio = (value: number, run: number): Sample => ({ metric: 'patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value, run });
const target = (op: Target['op'], threshold: number): Target => ({ label: 'ratio target', metric: 'patterm / tmux', contender: 'ratio', op, threshold });

test('a target is judged on the median of its runs', () => {
  const rows = buildRows([ratio(1.2, 0), ratio(3.0, 1), ratio(1.4, 2)]);
  assert.deepEqual(
    judge([target('<', 1.5), target('<', 1.3)], rows).map((verdict) => [verdict.value, verdict.verdict]),
    [
      [1.4, 'PASS'],
      [1.4, 'FAIL'],
    ],
  );
});

test('"at most" passes at the threshold, "under" and "at least" keep their meaning', () => {
  const rows = buildRows([ratio(2, 0)]);
  assert.deepEqual(
    judge([target('<=', 2), target('<', 2), target('>=', 2), target('<=', 1.99)], rows).map((verdict) => verdict.verdict),
    ['PASS', 'FAIL', 'PASS', 'FAIL'],
  );
});

test('a target whose row was never recorded is skipped, not failed', () => {
  assert.equal(judge([target('<=', 2)], [])[0].verdict, 'SKIP');
});
