import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signalForEvent } from '../../src/shared/event-signals.js';
import { SequenceScanner } from '../../src/shared/sequence-scanner.js';

/** The signals a program's output raises, through the real scanner. */
function signals(output: string, offset = 7) {
  const events = new SequenceScanner().scan(new TextEncoder().encode(output));
  return events.map((event) => signalForEvent(event, offset)).filter((signal) => signal !== null);
}

test('bell, title (OSC 0 and 2) and cursor shape', () => {
  assert.deepEqual(signals('a\x07b\x1b]0;one\x07\x1b]2;two\x1b\\\x1b[5 q'), [
    { type: 'bell' },
    { type: 'title', title: 'one' },
    { type: 'title', title: 'two' },
    { type: 'cursor-shape', shape: 5 },
  ]);
});

test('OSC 133 marks carry the offset, and D its exit code when it is a number', () => {
  assert.deepEqual(signals('\x1b]133;A\x07\x1b]133;D;2\x07\x1b]133;D;x\x07', 42), [
    { type: 'prompt-mark', mark: 'A', exitCode: undefined, offset: 42 },
    { type: 'prompt-mark', mark: 'D', exitCode: 2, offset: 42 },
    { type: 'prompt-mark', mark: 'D', exitCode: undefined, offset: 42 },
  ]);
  assert.deepEqual(signals('\x1b]133;Z\x07'), [], 'an unknown mark');
});

test('OSC 52 writes the clipboard; a read request ("?") is never answered', () => {
  assert.deepEqual(signals('\x1b]52;c;aGk=\x07'), [{ type: 'clipboard', selection: 'c', base64: 'aGk=' }]);
  assert.deepEqual(signals('\x1b]52;c;?\x07'), []);
});

test('queries raise no signal: they are answered from the emulator', () => {
  assert.deepEqual(signals('\x1b[c\x1b[>c'), []);
});
