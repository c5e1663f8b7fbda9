/**
 * wait_for_pattern's waiters, checked on each screen change (not on a poll)
 * on a real pattern matcher thread: a match, an absence, a match that must
 * hold still, a timeout with the screen's tail, a cancel, and a pattern that
 * overruns its budget failing only its own wait.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { PatternMatcher } from '../../src/node/pattern-matcher.js';
import { PatternWaiters } from '../../src/node/pattern-waiters.js';

const matcher = new PatternMatcher();
after(() => matcher.close());

/** A screen the test writes to; each write is a new version, as the emulator's is. */
class Screen {
  private rows: string[] = [];
  private at = 0;
  constructor(private readonly waiters: () => PatternWaiters) {}
  version(): number {
    return this.at;
  }
  lines(): string[] {
    return [...this.rows];
  }
  show(...rows: string[]): void {
    this.rows = rows;
    this.at++;
    this.waiters().onScreenChanged();
  }
}

function setUp(): { screen: Screen; waiters: PatternWaiters } {
  let waiters: PatternWaiters | null = null;
  const screen = new Screen(() => waiters!);
  waiters = new PatternWaiters(screen, matcher);
  return { screen, waiters };
}

const LONG = 30_000;

test('a wait matches when the screen changes to show the pattern, with the matching line as its snippet', async () => {
  const { screen, waiters } = setUp();
  screen.show('$ make');
  const waiting = waiters.add({ pattern: 'Build (ok|failed)', timeoutMs: LONG });
  assert.equal(waiters.count, 1);
  screen.show('$ make', 'compiling', 'Build ok in 3 s', '$ ');
  const result = await waiting;
  assert.equal(result.matched, true);
  assert.equal(result.snippet, 'Build ok in 3 s');
  assert.equal(result.screenVersion, 2);
  assert.equal(waiters.count, 0);
});

test('absent: true waits until the pattern is gone; ignore-case flags are honoured', async () => {
  const { screen, waiters } = setUp();
  screen.show('Working… (esc to interrupt)');
  const waiting = waiters.add({ pattern: 'ESC TO INTERRUPT', flags: 'i', absent: true, timeoutMs: LONG });
  screen.show('Working… (esc to interrupt)', 'more');
  screen.show('> ');
  assert.equal((await waiting).matched, true);
});

test('stableMs: the match must hold on an unchanged screen for that long; a change restarts the clock', async () => {
  const { screen, waiters } = setUp();
  screen.show('ready>');
  const started = performance.now();
  const waiting = waiters.add({ pattern: 'ready>', stableMs: 150, timeoutMs: LONG });
  setTimeout(() => screen.show('ready>', 'redrawn'), 50);
  const result = await waiting;
  assert.equal(result.matched, true);
  assert.ok(performance.now() - started >= 200, 'held still for stableMs after the last change');
});

test('a wait that times out reports unmatched with the last non-empty lines of the screen', async () => {
  const { screen, waiters } = setUp();
  screen.show('one', '', 'two', 'three');
  const result = await waiters.add({ pattern: 'never', timeoutMs: 20 });
  assert.equal(result.matched, false);
  assert.equal(result.snippet, 'one\ntwo\nthree');
});

test('cancel ends a named wait at once, unmatched; other waits go on', async () => {
  const { screen, waiters } = setUp();
  screen.show('x');
  const cancelled = waiters.add({ pattern: 'never', timeoutMs: LONG, id: 'w1' });
  const other = waiters.add({ pattern: 'later', timeoutMs: LONG, id: 'w2' });
  waiters.cancel('w1');
  assert.equal((await cancelled).matched, false);
  waiters.cancel('unknown');
  screen.show('later');
  assert.equal((await other).matched, true);
});

test('an invalid pattern throws at once, before any wait is registered', () => {
  const { waiters } = setUp();
  assert.throws(() => waiters.add({ pattern: '(unclosed', timeoutMs: LONG }));
  assert.equal(waiters.count, 0);
});

test('a pattern that backtracks past its budget fails its own wait, naming the problem', async () => {
  const { screen, waiters } = setUp();
  screen.show('a'.repeat(5000));
  const started = performance.now();
  const result = await waiters.add({ pattern: '.*.*.*.*.*X', timeoutMs: 60_000 });
  assert.equal(result.matched, false);
  assert.match(result.patternProblem ?? '', /took longer than \d+ ms to match and was stopped/);
  assert.ok(performance.now() - started < 60_000, 'ended by the budget, not the timeout');
});
