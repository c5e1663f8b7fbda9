import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../helpers/scratch-dir.js';
import { allowLocalSubmodules, branchExists, commitFiles, gitIn, makeRepo, statusOf } from '../../helpers/git-repo.js';
import { Worktrees } from '../../../src/main/worktrees/worktrees.js';
import type { PaneInfo } from '../../../src/shared/pane-types.js';
import { WorktreeError } from '../../../src/main/worktrees/worktree-error.js';

allowLocalSubmodules();
const root = realpathSync(scratchDir('patterm-worktree-remove-'));
const stateHome = join(root, 'state');
let repoCount = 0;
let panes: PaneInfo[] = [];

function setUp(): { dir: string; worktrees: Worktrees } {
  const dir = makeRepo(join(root, `repo-${++repoCount}`), { 'app.txt': 'line 1\nline 2\nline 3\n' });
  return { dir, worktrees: new Worktrees({ projectDir: dir, instanceId: 'run-1', stateHome, panes: () => panes }) };
}

async function made(worktrees: Worktrees, name: string, sessionId = 's1'): Promise<string> {
  return (await worktrees.prepare({ worktree: name, child: { name, kind: 'agent', preset: 'fake' }, sessionId })).record.path;
}

const human = { kind: 'human' } as const;

test('a clean worktree with nothing on its branch is removed with its branch and record', async () => {
  const { dir, worktrees } = setUp();
  const wt = await made(worktrees, 'clean');
  const result = await worktrees.remove(human, 'clean', false);
  assert.deepEqual(result.reasons, []);
  assert.equal(result.removed, true);
  assert.equal(result.branchDeleted, true);
  assert.ok(!existsSync(wt));
  assert.ok(!branchExists(dir, 'patterm/clean'));
  assert.equal(await worktrees.read('clean'), null);
  // The last worktree takes the <checkout>.worktrees directory with it.
  assert.ok(!existsSync(`${dir}.worktrees`));
  assert.equal(statusOf(dir), '');
});

test('refused while it has uncommitted or untracked changes, naming each', async () => {
  const { worktrees } = setUp();
  const wt = await made(worktrees, 'dirty');
  writeFileSync(join(wt, 'app.txt'), 'edited\n');
  writeFileSync(join(wt, 'notes.md'), 'new work\n');
  const result = await worktrees.remove(human, 'dirty', false);
  assert.equal(result.removed, false);
  assert.deepEqual(result.reasons, ['1 uncommitted change to tracked files: app.txt', '1 untracked file: notes.md']);
  assert.ok(existsSync(join(wt, 'notes.md')));
});

test('refused while its branch has commits on neither the base nor an upstream; force keeps that branch', async () => {
  const { dir, worktrees } = setUp();
  const wt = await made(worktrees, 'ahead');
  const commit = commitFiles(wt, { 'feature.txt': 'feature\n' }, 'add the feature');
  const refused = await worktrees.remove(human, 'ahead', false);
  assert.equal(refused.removed, false);
  assert.deepEqual(refused.reasons, ['branch patterm/ahead has 1 commit on neither main nor any upstream, and its change is not on main either (not squash-merged): "add the feature"']);
  const forced = await worktrees.remove(human, 'ahead', true);
  assert.equal(forced.removed, true);
  assert.equal(forced.branchDeleted, false);
  assert.equal(forced.branchKept, 'it has 1 unmerged commit');
  assert.ok(!existsSync(wt));
  assert.equal(gitIn(dir, 'rev-parse', 'patterm/ahead'), commit);
});

test('force removes a dirty worktree but not its unmerged branch; a clean branch goes', async () => {
  const { dir, worktrees } = setUp();
  const wt = await made(worktrees, 'messy');
  writeFileSync(join(wt, 'scratch.txt'), 'throwaway\n');
  const forced = await worktrees.remove(human, 'messy', true);
  assert.equal(forced.removed, true);
  assert.deepEqual(forced.reasons, ['1 untracked file: scratch.txt']);
  assert.equal(forced.branchDeleted, true);
  assert.ok(!branchExists(dir, 'patterm/messy'));
});

test('commits pushed to a remote count as safe', async () => {
  const { dir, worktrees } = setUp();
  const remote = join(root, `remote-${repoCount}.git`);
  gitIn(root, 'init', '-q', '--bare', remote);
  gitIn(dir, 'remote', 'add', 'origin', remote);
  const wt = await made(worktrees, 'pushed');
  commitFiles(wt, { 'feature.txt': 'feature\n' }, 'pushed work');
  gitIn(wt, 'push', '-q', '-u', 'origin', 'patterm/pushed');
  const listed = (await worktrees.list(human)).worktrees[0];
  assert.deepEqual(listed.upstream, { name: 'origin/patterm/pushed', ahead: 0, behind: 0 });
  assert.equal(listed.ahead, 1);
  const result = await worktrees.remove(human, 'pushed', false);
  assert.deepEqual(result.reasons, []);
  assert.equal(result.branchDeleted, true);
});

test('a branch merged into the base is removed with its branch', async () => {
  const { dir, worktrees } = setUp();
  const wt = await made(worktrees, 'merged');
  commitFiles(wt, { 'feature.txt': 'feature\n' }, 'merged work');
  gitIn(dir, 'merge', '-q', '--no-ff', '-m', 'merge', 'patterm/merged');
  const result = await worktrees.remove(human, 'merged', false);
  assert.deepEqual(result.reasons, []);
  assert.equal(result.squashMerged, false);
  assert.equal(result.branchDeleted, true);
});

test('a squash-merged branch counts as merged; one whose change is only partly on the base does not', async () => {
  const { dir, worktrees } = setUp();
  const wt = await made(worktrees, 'squashed');
  commitFiles(wt, { 'app.txt': 'line 1\nline 2 changed\nline 3\n' }, 'change line 2');
  commitFiles(wt, { 'feature.txt': 'feature\n' }, 'add feature');
  gitIn(dir, 'merge', '-q', '--squash', 'patterm/squashed');
  gitIn(dir, 'commit', '-q', '-m', 'squash of squashed');
  commitFiles(dir, { 'other.txt': 'main moved on\n' }, 'unrelated work on main');
  const squashed = await worktrees.remove(human, 'squashed', false);
  assert.deepEqual(squashed.reasons, []);
  assert.equal(squashed.squashMerged, true);
  assert.equal(squashed.branchDeleted, true);

  const partial = await made(worktrees, 'partial');
  commitFiles(partial, { 'one.txt': 'one\n' }, 'first half');
  commitFiles(partial, { 'two.txt': 'two\n' }, 'second half');
  commitFiles(dir, { 'more.txt': 'main moved on again\n' }, 'more work on main');
  gitIn(dir, 'cherry-pick', 'patterm/partial~1');
  const refused = await worktrees.remove(human, 'partial', false);
  assert.equal(refused.removed, false);
  assert.match(refused.reasons.join('\n'), /branch patterm\/partial has 2 commits on neither main nor any upstream.*"second half", "first half"/);
});

test('refused while a pane or any other process runs inside it', async () => {
  const { worktrees } = setUp();
  const wt = await made(worktrees, 'busy');
  panes = [{ id: 'p1', sessionId: 's1', parentId: 'root', name: 'scout', kind: 'agent', presetName: 'fake', argv: ['x'], cwd: wt, owner: 'orchestrator', process: { pid: 999999, status: 'running', exitCode: null, signal: null }, title: '', createdAt: 0 }];
  const sleeper = spawn('sleep', ['60'], { cwd: join(wt), stdio: 'ignore' });
  try {
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    const result = await worktrees.remove(human, 'busy', false);
    assert.equal(result.removed, false);
    assert.deepEqual(result.reasons, ['pane scout (child_id p1) is running inside it', `process ${sleeper.pid} (sleep) has its working directory inside it`]);
  } finally {
    sleeper.kill('SIGKILL');
    panes = [];
  }
  await new Promise((resolve) => sleeper.once('exit', resolve));
  assert.equal((await worktrees.remove(human, 'busy', false)).removed, true);
});

test('refused while its HEAD is detached with commits no branch holds', async () => {
  const { worktrees } = setUp();
  const wt = await made(worktrees, 'drifted');
  gitIn(wt, 'checkout', '-q', '--detach');
  commitFiles(wt, { 'lost.txt': 'would be lost\n' }, 'detached work');
  const result = await worktrees.remove(human, 'drifted', false);
  assert.deepEqual(result.reasons, ['its HEAD is detached with 1 commit that no branch, tag or upstream holds']);
});

test('refused while a submodule has commits not pushed to its remote', async () => {
  const sub = makeRepo(join(root, `library-${repoCount}`), { 'lib.txt': 'v1\n' });
  const { dir, worktrees } = setUp();
  gitIn(dir, 'submodule', 'add', '-q', sub, 'lib');
  gitIn(dir, 'commit', '-q', '-m', 'add lib');
  const wt = await made(worktrees, 'subwork');
  const inner = join(wt, 'lib');
  gitIn(inner, 'config', 'user.name', 'patterm test');
  gitIn(inner, 'config', 'user.email', 'test@patterm.invalid');
  commitFiles(inner, { 'lib.txt': 'v2\n' }, 'library change');
  gitIn(wt, 'add', 'lib');
  gitIn(wt, 'commit', '-q', '-m', 'bump lib');
  gitIn(dir, 'merge', '-q', 'patterm/subwork');
  const result = await worktrees.remove(human, 'subwork', false);
  assert.deepEqual(result.reasons, ['submodule lib has 1 commit not pushed to its remote']);
  gitIn(inner, 'push', '-q', 'origin', 'HEAD:refs/heads/pushed');
  gitIn(inner, 'fetch', '-q', 'origin');
  const removed = await worktrees.remove(human, 'subwork', false);
  assert.deepEqual(removed.reasons, []);
  assert.equal(removed.removed, true);
});

test('an orchestrator acts only on its own session\'s worktrees of this run; the human on any', async () => {
  const { worktrees, dir } = setUp();
  await made(worktrees, 'mine', 's1');
  await made(worktrees, 'theirs', 's2');
  const earlier = new Worktrees({ projectDir: dir, instanceId: 'run-0', stateHome, panes: () => [] });
  await made(earlier, 'old', 's1');
  const listed = await worktrees.list({ kind: 'session', sessionId: 's1' });
  assert.deepEqual(listed.worktrees.map((entry) => entry.name), ['mine']);
  assert.equal(listed.others, 2);
  await assert.rejects(worktrees.remove({ kind: 'session', sessionId: 's1' }, 'theirs', true), (error: Error) => error instanceof WorktreeError && /belongs to another session/.test(error.message));
  await assert.rejects(worktrees.diff({ kind: 'session', sessionId: 's1' }, 'old', true), /belongs to an earlier run of patterm/);
  assert.deepEqual((await worktrees.list(human)).worktrees.map((entry) => [entry.name, entry.leftover]), [['mine', false], ['theirs', false], ['old', true]]);
  assert.equal((await worktrees.remove(human, 'old', false)).removed, true);
});

test('worktree_diff\'s change: committed, staged, unstaged and untracked, and the worktree\'s own index untouched', async () => {
  const { worktrees } = setUp();
  const wt = await made(worktrees, 'diffed');
  commitFiles(wt, { 'committed.txt': 'committed\n' }, 'a commit');
  writeFileSync(join(wt, 'staged.txt'), 'staged\n');
  gitIn(wt, 'add', 'staged.txt');
  writeFileSync(join(wt, 'app.txt'), 'line 1\nline 2 edited\nline 3\n');
  writeFileSync(join(wt, 'untracked.txt'), 'untracked\n');
  const before = statusOf(wt);
  const { diff } = await worktrees.diff(human, 'diffed', false);
  assert.equal(diff.files, 4);
  for (const file of ['committed.txt', 'staged.txt', 'app.txt', 'untracked.txt']) assert.match(diff.stat, new RegExp(file.replace('.', '\\.')));
  assert.match(diff.patch, /\+line 2 edited/);
  assert.match(diff.patch, /\+untracked/);
  assert.equal(statusOf(wt), before);
  const statOnly = await worktrees.diff(human, 'diffed', true);
  assert.equal(statOnly.diff.patch, '');
  assert.match(statOnly.diff.stat, /4 files changed/);
});
