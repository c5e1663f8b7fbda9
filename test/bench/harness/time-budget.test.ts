import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimeBudget, type BudgetedScenario } from '../../../bench/harness/time-budget.js';

const suite: BudgetedScenario[] = [
  { name: 'flood', defaultRuns: 2, secondsPerRun: 20 },
  { name: 'memory', defaultRuns: 1, secondsPerRun: 90 },
  { name: 'echo', defaultRuns: 2, secondsPerRun: 60 },
  { name: 'frames', defaultRuns: 3, secondsPerRun: 10 },
];
// At the estimates the suite takes 2*20 + 90 + 2*60 + 3*10 = 280 s.

test('a suite on time runs every scenario at its default runs', () => {
  const budget = new TimeBudget(suite, 300);
  let elapsed = 0;
  for (const [index, scenario] of suite.entries()) {
    const runs = budget.runsFor(index, elapsed);
    assert.equal(runs, scenario.defaultRuns, scenario.name);
    elapsed += runs * scenario.secondsPerRun;
    budget.finished(index, runs, runs * scenario.secondsPerRun);
  }
  assert.equal(budget.pace, 1);
});

test('a slow machine loses runs from the costliest scenario first, and stays within the budget', () => {
  const budget = new TimeBudget(suite, 300);
  const slowdown = 1.2; // every run takes 20 % longer than estimated: 336 s at default runs
  let elapsed = 0;
  const ran: number[] = [];
  for (const [index, scenario] of suite.entries()) {
    const runs = budget.runsFor(index, elapsed);
    ran.push(runs);
    elapsed += runs * scenario.secondsPerRun * slowdown;
    budget.finished(index, runs, runs * scenario.secondsPerRun * slowdown);
  }
  // The flood runs first, before anything shows the slowdown; then echo (60 s a run) gives one up.
  assert.deepEqual(ran, [2, 1, 1, 3]);
  assert.ok(elapsed <= 300, `the suite took ${elapsed} s`);
  assert.ok(Math.abs(budget.pace - slowdown) < 1e-9);
});

test('the runs cut are the costliest, so a cheap scenario keeps its repetitions', () => {
  // 50 s over: one echo run (60 s) covers it; cutting frames and then flood first would cost flood a run.
  const budget = new TimeBudget(suite, 230);
  assert.equal(budget.runsFor(0, 0), 2);
  assert.equal(budget.runsFor(3, 0), 3);
});

test('the scenario about to start is cut only when cutting later ones is not enough', () => {
  const budget = new TimeBudget(suite, 300);
  // 150 s already gone (e.g. a slow dataset generation): 280 s of plan in 150 s left.
  assert.equal(budget.runsFor(0, 150), 1);
  // With 10 s left only one run of the last scenario fits; with none left it still gets one.
  assert.equal(budget.runsFor(3, 290), 1);
  assert.equal(budget.runsFor(2, 1000), 1);
});

test('a fast machine earns no extra runs, and no credit against later slowness', () => {
  const budget = new TimeBudget(suite, 300);
  budget.finished(0, 2, 10); // half the estimate
  assert.equal(budget.pace, 1);
  // 100 s left for echo and frames, 150 s at the estimates: at a pace of 0.25 both echo runs would seem to fit.
  assert.equal(budget.runsFor(2, 200), 1);
  assert.equal(budget.runsFor(3, 200), 3);
});
