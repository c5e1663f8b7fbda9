/** events.ts: the first/last listener hooks that let a source work only while someone listens. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/shared/events.js';

test('first and last listener hooks fire once per transition, and a second dispose changes nothing', () => {
  const calls: string[] = [];
  const emitter = new Emitter<number>({ onFirstListenerAdded: () => calls.push('first'), onLastListenerRemoved: () => calls.push('last') });
  const seen: number[] = [];
  const listener = (value: number) => seen.push(value);
  const a = emitter.event(listener);
  const b = emitter.event(listener); // the same function twice is two subscriptions
  assert.deepEqual(calls, ['first']);
  emitter.fire(1);
  assert.deepEqual(seen, [1, 1]);
  a.dispose();
  a.dispose();
  assert.deepEqual(calls, ['first'], 'one subscription is left');
  assert.equal(emitter.hasListeners, true);
  emitter.fire(2);
  assert.deepEqual(seen, [1, 1, 2]);
  b.dispose();
  assert.deepEqual(calls, ['first', 'last']);
  assert.equal(emitter.hasListeners, false);
  emitter.event(listener);
  assert.deepEqual(calls, ['first', 'last', 'first']);
});
