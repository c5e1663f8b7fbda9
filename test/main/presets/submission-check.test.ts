import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadySignal } from '../../../src/shared/preset-schema.js';
import { confirmSubmission, typedInput, type ScreenView } from '../../../src/main/presets/submission-check.js';
import { screenState } from '../../../src/main/presets/ready-state.js';

const signal: ReadySignal = { kind: 'pattern', pattern: '\\? for shortcuts', busy_pattern: 'esc to interrupt' };
const view = async (lines: string[], y: number): Promise<ScreenView> => ({ lines, cursor: { x: 2, y }, state: await screenState(signal, lines) });

test('a message queued while the agent works is confirmed by its input clearing, not by the busy marker it already had', async () => {
  const before = await view(['✻ Working… (esc to interrupt)', '─────', '❯', '─────'], 2);
  const typedScreen = await view(['✻ Working… (esc to interrupt)', '─────', '❯ [sub-agent:x] done', '─────'], 2);
  const typed = typedInput(before, typedScreen);
  assert.equal(typed.busyBeforeTyping, true);
  assert.equal(confirmSubmission(typed, typedScreen), null, 'Enter not processed yet: busy alone proves nothing');
  const queued = await view(['✻ Working… (esc to interrupt)', '  ⎿ [sub-agent:x] done', '─────', '❯', '─────'], 3);
  assert.equal(confirmSubmission(typed, queued), 'input-cleared');
});

test('from ready: the busy marker, the cleared input or the returning ready hint each confirm', async () => {
  const before = await view(['─────', '❯', '─────', '  ? for shortcuts'], 1);
  const typedScreen = await view(['─────', '❯ hello', '─────', ''], 1);
  const typed = typedInput(before, typedScreen);
  assert.deepEqual(typed, { emptyRow: '❯', echoRow: '❯ hello', readyHidByTyping: true, busyBeforeTyping: false });
  assert.equal(confirmSubmission(typed, typedScreen), null);
  assert.equal(confirmSubmission(typed, await view(['❯ hello', '✻ esc to interrupt', '─────', '❯ hello', '─────'], 3)), 'busy');
  assert.equal(confirmSubmission(typed, await view(['❯ hello', '', '● hi', '─────', '❯', '─────'], 4)), 'input-cleared');
  // An Enter read as a newline: the text stays one row up and the cursor sits on a fresh line.
  assert.equal(confirmSubmission(typed, await view(['─────', '❯ hello', '', '─────'], 2)), null);
});

test('busy showing only once the text was typed still proves nothing', async () => {
  const before = await view(['─────', '❯', '─────', '  ? for shortcuts'], 1);
  const typedScreen = await view(['✻ Working… (esc to interrupt)', '─────', '❯ hello', '─────'], 2);
  const typed = typedInput(before, typedScreen);
  assert.equal(typed.busyBeforeTyping, true);
  assert.equal(confirmSubmission(typed, typedScreen), null);
});
