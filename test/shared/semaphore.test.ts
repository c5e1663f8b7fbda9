import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Semaphore } from '../../src/shared/semaphore.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('at most `limit` holders; the rest are served in call order as slots free', async () => {
  const gate = new Semaphore(2);
  const order: number[] = [];
  const releases = new Map<number, () => void>();
  for (let i = 0; i < 5; i++) {
    void gate.acquire().then((release) => {
      order.push(i);
      releases.set(i, release);
    });
  }
  await tick();
  assert.deepEqual(order, [0, 1]);
  assert.equal(gate.active, 2);
  assert.equal(gate.waiting, 3);

  releases.get(1)!();
  await tick();
  assert.deepEqual(order, [0, 1, 2]);
  assert.equal(gate.active, 2, 'the slot passed on; it was never free');

  releases.get(0)!();
  releases.get(2)!();
  await tick();
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  releases.get(3)!();
  releases.get(4)!();
  assert.equal(gate.active, 0);
  assert.equal(gate.waiting, 0);
});

test('a release called twice frees one slot, not two', async () => {
  const gate = new Semaphore(1);
  const first = await gate.acquire();
  let secondHeld = false;
  let thirdHeld = false;
  void gate.acquire().then(() => (secondHeld = true));
  void gate.acquire().then(() => (thirdHeld = true));
  first();
  first();
  await tick();
  assert.equal(secondHeld, true);
  assert.equal(thirdHeld, false, 'a repeated release let a second caller in');
  assert.equal(gate.active, 1);
});

test('a newcomer cannot take a slot that is being handed to a queued caller', async () => {
  const gate = new Semaphore(1);
  const first = await gate.acquire();
  const served: string[] = [];
  void gate.acquire().then(() => served.push('queued'));
  first();
  void gate.acquire().then(() => served.push('newcomer'));
  await tick();
  assert.deepEqual(served, ['queued']);
});

test('the limit must be a positive integer, and the error says what it received', () => {
  assert.throws(() => new Semaphore(0), /positive integer \(received 0\)/);
  assert.throws(() => new Semaphore(1.5), /received 1\.5/);
  assert.throws(() => new Semaphore(Number.NaN), /received NaN/);
});
