/** The host window title: what it says for a pane, and that a pane's title cannot smuggle escape sequences out. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostTitle, hostTitleFor, setTitleSequence } from '../../src/renderer/host-title.js';
import type { UiPane } from '../../src/shared/renderer-protocol.js';

const pane = (title: string, name = 'bash'): UiPane => ({
  id: 'p1', sessionId: 'p1', parentId: null, name, kind: 'process', status: 'running', exitCode: null, signal: null, owner: 'user', title,
});

test('the title is the pane\'s own title, else its name, then " — patterm"; "patterm" on the empty canvas', () => {
  assert.equal(hostTitleFor(pane('vim notes.md')), 'vim notes.md — patterm');
  assert.equal(hostTitleFor(pane('  ', 'build')), 'build — patterm');
  assert.equal(hostTitleFor(null), 'patterm');
});

test('control characters in a pane\'s title are dropped, so it cannot end the OSC early or ring the bell', () => {
  assert.equal(setTitleSequence('a\x07b\x1b]0;evil\x1b\\c\x9bd'), '\x1b]2;ab]0;evil\\cd\x07');
});

test('the title is sent only when it changes, and again after invalidate()', () => {
  const title = new HostTitle();
  assert.equal(title.update(pane('x')), '\x1b]2;x — patterm\x07');
  assert.equal(title.update(pane('x')), '');
  title.invalidate();
  assert.equal(title.update(pane('x')), '\x1b]2;x — patterm\x07');
});
