/** UiState: what the view keeps between models (here, notices). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UiState } from '../../src/renderer/ui-state.js';
import type { UiModel, UiPane } from '../../src/shared/renderer-protocol.js';

const pane = (id: string): UiPane => ({ id, sessionId: id, parentId: null, name: id, kind: 'process', status: 'running', exitCode: null, signal: null, owner: 'user', title: '' });
const modelWith = (...ids: string[]): UiModel => ({
  sessions: ids.map((id) => ({ id, name: id, rootId: id, childIds: [] })),
  panes: Object.fromEntries(ids.map((id) => [id, pane(id)])),
  presets: [],
  scratchpads: [],
  worktrees: [],
});

test('"Starting …" goes as soon as the new pane arrives; other notices keep their time', () => {
  const state = new UiState(100, 30);
  const noticeText = () => state.notice?.text ?? null;
  state.applyModel(modelWith('a'));
  state.setNotice('Starting bash…', 'info', 4000, true);
  state.applyModel(modelWith('a'));
  assert.equal(noticeText(), 'Starting bash…', 'a model without a new pane leaves it');
  state.applyModel(modelWith('a', 'b'));
  assert.equal(noticeText(), null, 'the pane is there: the notice has said all it had to');

  state.setNotice('"x" not found in this direction', 'warning', 5000);
  state.applyModel(modelWith('a', 'b', 'c'));
  assert.equal(noticeText(), '"x" not found in this direction', 'an ordinary notice stays for its time');
});

test('the rail previews the most recently written scratchpad; among ones written in the same tick, the last by name', () => {
  const state = new UiState(100, 30);
  const pad = (name: string, modifiedAt: number) => ({ name, size: 1, modifiedAt });
  state.applyModel({ ...modelWith('a'), scratchpads: [pad('notes.md', 500), pad('plan.md', 900), pad('todo.md', 100)] });
  assert.equal(state.shownScratchpad(), 'plan.md');
  state.applyModel({ ...modelWith('a'), scratchpads: [pad('pad-27.md', 900), pad('pad-28.md', 1000), pad('pad-29.md', 1000)] });
  assert.equal(state.shownScratchpad(), 'pad-29.md');
});

test('a milder notice waits for a graver one still showing, then shows for its own time', () => {
  const state = new UiState(100, 30);
  state.setNotice('3 worktrees left from earlier runs', 'warning', 5000);
  state.setNotice('a resumable session exists', 'info', 4000);
  assert.equal(state.notice?.text, '3 worktrees left from earlier runs', 'the warning is not cut short');
  state.expireNotice(performance.now());
  assert.equal(state.notice?.text, '3 worktrees left from earlier runs', 'nothing ends before its time');
  state.expireNotice(performance.now() + 5001);
  assert.equal(state.notice?.text, 'a resumable session exists');
  assert.equal(state.notice?.level, 'info');
  assert.ok(state.notice!.until > performance.now() + 3000, 'the waiting notice gets its whole time');
  state.setNotice('could not spawn', 'error', 10000);
  assert.equal(state.notice?.text, 'could not spawn', 'a graver notice replaces a milder one at once');
  state.setNotice('another warning', 'warning', 5000);
  state.setNotice('latest warning', 'warning', 5000);
  state.expireNotice(performance.now() + 10001);
  assert.equal(state.notice?.text, 'latest warning', 'of the milder ones that waited, the latest shows');
});
