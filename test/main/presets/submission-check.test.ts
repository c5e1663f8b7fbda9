import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadySignal } from '../../../src/shared/preset-schema.js';
import { confirmSubmission, typedInput, type ScreenView } from '../../../src/main/presets/submission-check.js';

const signal: ReadySignal = { kind: 'pattern', pattern: '\\? for shortcuts', busy_pattern: 'esc to interrupt' };
const view = (lines: string[], y: number): ScreenView => ({ lines, cursor: { x: 2, y } });

test('a message queued while the agent works is confirmed by its input clearing, not by the busy marker it already had', () => {
  const before = view(['✻ Working… (esc to interrupt)', '─────', '❯', '─────'], 2);
  const typedScreen = view(['✻ Working… (esc to interrupt)', '─────', '❯ [sub-agent:x] done', '─────'], 2);
  const typed = typedInput(signal, before, typedScreen);
  assert.equal(typed.busyBeforeTyping, true);
  assert.equal(confirmSubmission(signal, typed, typedScreen), null, 'Enter not processed yet: busy alone proves nothing');
  const queued = view(['✻ Working… (esc to interrupt)', '  ⎿ [sub-agent:x] done', '─────', '❯', '─────'], 3);
  assert.equal(confirmSubmission(signal, typed, queued), 'input-cleared');
});

test('from ready: the busy marker, the cleared input or the returning ready hint each confirm', () => {
  const before = view(['─────', '❯', '─────', '  ? for shortcuts'], 1);
  const typedScreen = view(['─────', '❯ hello', '─────', ''], 1);
  const typed = typedInput(signal, before, typedScreen);
  assert.deepEqual(typed, { emptyRow: '❯', echoRow: '❯ hello', readyHidByTyping: true, busyBeforeTyping: false });
  assert.equal(confirmSubmission(signal, typed, typedScreen), null);
  assert.equal(confirmSubmission(signal, typed, view(['❯ hello', '✻ esc to interrupt', '─────', '❯ hello', '─────'], 3)), 'busy');
  assert.equal(confirmSubmission(signal, typed, view(['❯ hello', '', '● hi', '─────', '❯', '─────'], 4)), 'input-cleared');
  // An Enter read as a newline: the text stays one row up and the cursor sits on a fresh line.
  assert.equal(confirmSubmission(signal, typed, view(['─────', '❯ hello', '', '─────'], 2)), null);
});

test('busy showing only once the text was typed still proves nothing', () => {
  const before = view(['─────', '❯', '─────', '  ? for shortcuts'], 1);
  const typedScreen = view(['✻ Working… (esc to interrupt)', '─────', '❯ hello', '─────'], 2);
  const typed = typedInput(signal, before, typedScreen);
  assert.equal(typed.busyBeforeTyping, true);
  assert.equal(confirmSubmission(signal, typed, typedScreen), null);
});
