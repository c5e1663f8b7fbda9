/**
 * Callers' patterns run on matcher threads under a budget: answers as inline
 * matching gives them, and a pathological pattern fails its own call without
 * holding up anyone else's.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { PatternMatcher } from '../../src/node/pattern-matcher.js';
import { matchScreenPatterns, type ScreenPatternRules } from '../../src/shared/agent-state.js';

const matcher = new PatternMatcher();
after(() => matcher.close());

/** Polynomial, not exponential: five stars on a 4000-character line is ~10^17 steps. */
const POLYNOMIAL = '.*.*.*.*.*X';
const LONG_LINE = 'a'.repeat(4000);
/** Short enough to keep the test quick, far past what any sane match here takes. */
const TEST_BUDGET_MS = 500;

test('search, line hits and stream filters give what inline matching gives', async () => {
  assert.deepEqual(await matcher.search({ pattern: 'listening on :(\\d+)', flags: '' }, 'starting\nserver listening on :8080'), { ok: true, value: { index: 16, length: 18 } });
  assert.deepEqual(await matcher.search({ pattern: 'never', flags: 'i' }, 'text'), { ok: true, value: null });
  const hits = await matcher.firstLineHits([{ pattern: 'ready', flags: '' }, { pattern: '^Error', flags: '' }], ['booting', '\x1b[31mError: port in use\x1b[0m', 'ready now']);
  assert.deepEqual(hits, { ok: true, value: [{ which: 1, line: 'Error: port in use' }, { which: 0, line: 'ready now' }] });
  const bytes = new TextEncoder().encode('\x1b[31mERROR\x1b[0m disk full\r\nok line\nplain error here\n');
  const filtered = await matcher.filterStream({ pattern: 'error', flags: 'i' }, bytes);
  assert.deepEqual(filtered, { ok: true, value: { lines: ['ERROR disk full', 'plain error here'], totalLines: 3 } });
});

test('a polynomial pattern fails its call with the pattern and the budget named; a match started meanwhile answers first', async () => {
  let badSettled = false;
  const bad = matcher.search({ pattern: POLYNOMIAL, flags: '' }, LONG_LINE, TEST_BUDGET_MS).finally(() => (badSettled = true));
  const good = await matcher.search({ pattern: 'a$', flags: '' }, LONG_LINE, TEST_BUDGET_MS);
  assert.equal(badSettled, false, 'the sane match answered while the bad one still ran');
  assert.deepEqual(good, { ok: true, value: { index: 3999, length: 1 } });
  const outcome = await bad;
  assert.equal(outcome.ok, false);
  assert.equal(outcome.ok ? '' : outcome.problem, `".*.*.*.*.*X" took longer than ${TEST_BUDGET_MS} ms to match and was stopped: it backtracks too much (repeated or nested quantifiers such as ".*.*.*X" or "(a+)+"); simplify it`);
  // Its thread was terminated, not left spinning; the next match gets a fresh one.
  assert.deepEqual(await matcher.search({ pattern: 'a{3}', flags: '' }, 'baaa', TEST_BUDGET_MS), { ok: true, value: { index: 1, length: 3 } });
});

test('an exponential pattern with flags, and a filter, are stopped the same way', async () => {
  const exponential = await matcher.search({ pattern: '^(a+)+$', flags: 'i' }, `${'a'.repeat(40)}!`, TEST_BUDGET_MS);
  assert.match(exponential.ok ? '' : exponential.problem, /^"\^\(a\+\)\+\$" \(flags i\) took longer than 500 ms/);
  const filter = await matcher.filterStream({ pattern: POLYNOMIAL, flags: '' }, new TextEncoder().encode(`${LONG_LINE}\n`), TEST_BUDGET_MS);
  assert.match(filter.ok ? '' : filter.problem, /^"\.\*\.\*\.\*\.\*\.\*X" took longer than 500 ms/);
  const both = await matcher.firstLineHits([{ pattern: 'ready', flags: '' }, { pattern: POLYNOMIAL, flags: '' }], [LONG_LINE], TEST_BUDGET_MS);
  assert.match(both.ok ? '' : both.problem, /^one of "ready" or "\.\*\.\*\.\*\.\*\.\*X" took longer than 500 ms/);
});

test('with every thread busy overrunning, a queued match still gets its whole budget once a thread is free', async () => {
  const small = new PatternMatcher({ maxThreads: 1 });
  try {
    const bad = small.search({ pattern: POLYNOMIAL, flags: '' }, LONG_LINE, TEST_BUDGET_MS);
    const queued = small.search({ pattern: 'a+$', flags: '' }, 'baa', TEST_BUDGET_MS);
    assert.equal((await bad).ok, false);
    assert.deepEqual(await queued, { ok: true, value: { index: 1, length: 2 } });
    assert.equal(small.threadCount, 1);
  } finally {
    await small.close();
  }
});

test('a search whose pattern cannot backtrack runs inline, with no thread', async () => {
  const inline = new PatternMatcher();
  assert.deepEqual(await inline.search({ pattern: 'ready>', flags: 'i' }, 'booting\nREADY> '), { ok: true, value: { index: 8, length: 6 } });
  assert.equal(inline.threadCount, 0);
  assert.deepEqual(await inline.search({ pattern: 'ready>+', flags: 'i' }, 'booting\nREADY> '), { ok: true, value: { index: 8, length: 6 } });
  assert.equal(inline.threadCount, 1);
  await inline.close();
});

test('an idle thread ends by itself', async () => {
  const quick = new PatternMatcher({ idleExitMs: 50 });
  assert.equal((await quick.search({ pattern: 'x+', flags: '' }, 'x')).ok, true);
  assert.equal(quick.threadCount, 1);
  while (quick.threadCount > 0) await new Promise((resolve) => setTimeout(resolve, 20));
});

const DIALOG_SCREEN = ['transcript', '─────', ' Run rm -rf build?', ' 1 yes 2 no', ''];
const STATE_RULES: ScreenPatternRules = {
  dialogs: [{ kind: 'permission', pattern: '^ Run .+\\?', region: { below: '^─{5,}$' } }],
  readyPattern: '^> $',
  busyPattern: 'esc to interrupt',
};

test('a preset\'s screen patterns give on a thread what they give inline; without backtracking they run inline', async () => {
  const own = new PatternMatcher();
  try {
    for (const lines of [DIALOG_SCREEN, ['> '], ['working (esc to interrupt)', '> '], ['plain']]) {
      assert.deepEqual(await own.screenPatterns(STATE_RULES, lines), { ok: true, value: matchScreenPatterns(STATE_RULES, lines) });
    }
    assert.equal(own.threadCount, 1, 'quantifiers: matched on a thread');
    const plain = new PatternMatcher();
    const rules: ScreenPatternRules = { dialogs: [{ kind: 'question', pattern: '^ Which file\\?', region: { bottom_rows: 3 } }], readyPattern: '^> $' };
    const found = await plain.screenPatterns(rules, ['', ' Which file?', '> ']);
    assert.deepEqual(found, { ok: true, value: { dialog: { index: 0, kind: 'question', text: ' Which file?\n>' }, busy: false, ready: false } });
    assert.equal(plain.threadCount, 0, 'no quantifier anywhere: inline');
    await plain.close();
  } finally {
    await own.close();
  }
});

test('a screen pattern that overruns is named by its preset field; so is a list pattern by its label', async () => {
  const rules: ScreenPatternRules = { ...STATE_RULES, dialogs: [...STATE_RULES.dialogs, { kind: 'question', pattern: POLYNOMIAL, region: { bottom_rows: 5 } }] };
  const screen = await matcher.screenPatterns(rules, ['plain', LONG_LINE], TEST_BUDGET_MS);
  assert.deepEqual(screen, {
    ok: false,
    overran: true,
    problem: `dialogs[1].pattern ".*.*.*.*.*X" took longer than ${TEST_BUDGET_MS} ms to match and was stopped: it backtracks too much (repeated or nested quantifiers such as ".*.*.*X" or "(a+)+"); simplify it`,
  });
  const labelled = [
    { field: 'permissions.deny.0', pattern: '\\b(?:sudo|su)\\b', flags: 'i' },
    { field: 'permissions.deny.1', pattern: POLYNOMIAL, flags: 'i' },
  ];
  assert.deepEqual(await matcher.firstMatching(labelled, 'sudo make'), { ok: true, value: 0 });
  const list = await matcher.firstMatching(labelled, LONG_LINE, TEST_BUDGET_MS);
  assert.match(list.ok ? '' : list.problem, /^permissions\.deny\.1 "\.\*\.\*\.\*\.\*\.\*X" \(flags i\) took longer than 500 ms/);
  assert.deepEqual(await matcher.firstMatching([{ field: 'x', pattern: 'make', flags: '' }], 'sudo make'), { ok: true, value: 0 });
});
