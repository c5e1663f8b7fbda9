import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FloodHold, HOLD_MAX_MS, HOLD_QUIET_MS, HOLD_TARGET_BYTES } from '../../../src/workers/flood/flood-hold.js';

const KEPT = 300_000;

const holdAt = (clock: { now: number }) => new FloodHold(() => undefined, () => clock.now);

test('no hold before a skim: output is handed on as it comes', () => {
  const clock = { now: 1000 };
  const hold = holdAt(clock);
  hold.read();
  assert.equal(hold.holds(1 << 20, true), false);
  assert.equal(hold.engaged, false);
  assert.equal(hold.waitsForBacklog, false);
});

test('after a skim, the kept lines are handed on first, then the flood is held while it keeps writing', (t) => {
  const clock = { now: 1000 };
  const hold = holdAt(clock);
  t.after(() => hold.dispose());
  hold.read();
  hold.skimmed(KEPT);
  assert.ok(hold.engaged);
  assert.ok(hold.releasingKept);
  assert.equal(hold.holds(KEPT, true), false, 'the kept lines are not held');
  assert.equal(hold.waitsForBacklog, false);
  hold.handedOn(KEPT - 1);
  assert.ok(hold.releasingKept);
  hold.handedOn(64 * 1024);
  assert.equal(hold.releasingKept, false);
  assert.ok(hold.waitsForBacklog, 'handing on stops once the kept lines are out');

  for (let ms = 0; ms < HOLD_MAX_MS; ms += HOLD_QUIET_MS - 1) {
    clock.now = 1000 + ms;
    hold.read();
    assert.equal(hold.holds(HOLD_TARGET_BYTES - 1, true), true, `held ${ms} ms into the hold`);
  }
});

test('a hold ends when the backlog reaches the target, when the screen is due, when the program stops, or when a skim would not be allowed', (t) => {
  const cases: Array<[string, (clock: { now: number }, hold: FloodHold) => boolean]> = [
    ['target', (_clock, hold) => hold.holds(HOLD_TARGET_BYTES, true)],
    [
      'screen due',
      (clock, hold) => {
        clock.now += HOLD_MAX_MS;
        hold.read();
        return hold.holds(1024, true);
      },
    ],
    [
      'program stopped',
      (clock, hold) => {
        clock.now += HOLD_QUIET_MS;
        return hold.holds(1024, true);
      },
    ],
    ['not allowed', (_clock, hold) => hold.holds(1024, false)],
  ];
  for (const [name, ending] of cases) {
    const clock = { now: 5000 };
    const hold = holdAt(clock);
    t.after(() => hold.dispose());
    hold.read();
    hold.skimmed(0);
    assert.equal(hold.holds(1024, true), true, `${name}: held at first`);
    assert.equal(ending(clock, hold), false, `${name}: the hold ends`);
    assert.equal(hold.engaged, false, `${name}: disengaged until the next skim`);
    assert.equal(hold.waitsForBacklog, false, `${name}: output is handed on again`);
  }
});

test('a held flood is looked at again after HOLD_QUIET_MS, so output that stopped coming is not left unparsed', async () => {
  let rechecks = 0;
  const hold = new FloodHold(() => rechecks++);
  try {
    hold.read();
    hold.skimmed(0);
    assert.equal(hold.holds(1024, true), true);
    assert.equal(hold.holds(2048, true), true, 'one timer for the whole hold');
    await new Promise((resolve) => setTimeout(resolve, HOLD_QUIET_MS + 30));
    assert.equal(rechecks, 1);
    assert.equal(hold.holds(2048, true), false, 'no read since: the program stopped, and the hold is over');
  } finally {
    hold.dispose();
  }
});

test('dispose cancels the recheck', async () => {
  let rechecks = 0;
  const hold = new FloodHold(() => rechecks++);
  hold.read();
  hold.skimmed(0);
  assert.equal(hold.holds(1024, true), true);
  hold.dispose();
  await new Promise((resolve) => setTimeout(resolve, HOLD_QUIET_MS + 30));
  assert.equal(rechecks, 0);
  assert.equal(hold.engaged, false);
});
