import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../helpers/scratch-dir.js';
import { allowLocalSubmodules, branchExists, commitFiles, gitIn, makeRepo, statusOf, writeFiles } from '../../helpers/git-repo.js';
import { Worktrees } from '../../../src/main/worktrees/worktrees.js';
import { WorktreeError } from '../../../src/main/worktrees/worktree-error.js';
import type { WorktreeSettings } from '../../../src/main/worktrees/worktree-settings.js';
import { readWorktreeRecord } from '../../../src/main/worktrees/worktree-records.js';

allowLocalSubmodules();
const root = realpathSync(scratchDir('patterm-worktree-create-'));
const stateHome = join(root, 'state');
let repoCount = 0;

function project(files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  return makeRepo(join(root, `repo-${++repoCount}`), files);
}

function worktreesFor(projectDir: string, settings?: Partial<WorktreeSettings>): Worktrees {
  return new Worktrees({ projectDir, instanceId: 'run-1', stateHome, settings: { setupTimeoutSeconds: 60, ...settings }, panes: () => [] });
}

const child = (name: string) => ({ name, kind: 'agent', preset: 'claude' });

async function refusal(promise: Promise<unknown>): Promise<string> {
  await assert.rejects(promise, WorktreeError);
  return promise.then(
    () => '',
    (error: Error) => error.message,
  );
}

test('a worktree gets branch patterm/<name> at HEAD, beside the checkout, and the checkout stays clean', async () => {
  const dir = project();
  const head = gitIn(dir, 'rev-parse', 'HEAD');
  const prepared = await worktreesFor(dir).prepare({ worktree: 'feature', child: child('scout'), sessionId: 's1' });
  assert.equal(prepared.record.path, `${dir}.worktrees/feature`);
  assert.equal(prepared.cwd, prepared.record.path);
  assert.equal(gitIn(prepared.cwd, 'rev-parse', '--abbrev-ref', 'HEAD'), 'patterm/feature');
  assert.equal(gitIn(prepared.cwd, 'rev-parse', 'HEAD'), head);
  assert.equal(readFileSync(join(prepared.cwd, 'README.md'), 'utf8'), 'hello\n');
  assert.equal(statusOf(dir), '');
  // No upstream: a push from the worktree must not go to main.
  assert.equal(gitIn(prepared.cwd, 'for-each-ref', '--format=%(upstream)', 'refs/heads/patterm/feature'), '');
  const record = await readWorktreeRecord(dir, 'feature', stateHome);
  assert.ok(record);
  assert.equal(record.status, 'ready');
  assert.equal(record.branch, 'patterm/feature');
  assert.equal(record.baseRef, 'refs/heads/main');
  assert.equal(record.baseCommit, head);
  assert.equal(record.checkout, dir);
  assert.deepEqual(record.child, { name: 'scout', kind: 'agent', preset: 'claude', paneId: null });
  assert.deepEqual(record.owner, { instanceId: 'run-1', sessionId: 's1' });
  assert.ok(Number.isInteger(record.port) && record.port > 0);
  assert.deepEqual(prepared.env, { PATTERM_WORKTREE: record.path, PATTERM_CHECKOUT: dir, PATTERM_PORT: String(record.port) });
});

test('worktree: true takes the child\'s name, numbered when a worktree already has it', async () => {
  const dir = project();
  const worktrees = worktreesFor(dir);
  const first = await worktrees.prepare({ worktree: true, child: child('claude-1'), sessionId: 's1' });
  const second = await worktrees.prepare({ worktree: true, child: child('claude-1'), sessionId: 's1' });
  assert.equal(first.record.name, 'claude-1');
  assert.equal(second.record.name, 'claude-1-2');
  assert.equal(second.requestedName, 'claude-1');
  assert.notEqual(first.record.port, second.record.port);
});

test('a name with spaces and slashes is made plain for the branch and the directory', async () => {
  const dir = project();
  const prepared = await worktreesFor(dir).prepare({ worktree: 'fix login/bug #2', child: child('a'), sessionId: null });
  assert.equal(prepared.record.name, 'fix-login-bug-2');
  assert.equal(prepared.record.branch, 'patterm/fix-login-bug-2');
  assert.equal(prepared.requestedName, 'fix login/bug #2');
  assert.ok(existsSync(`${dir}.worktrees/fix-login-bug-2/README.md`));
  const nothing = await refusal(worktreesFor(dir).prepare({ worktree: '///', child: child('a'), sessionId: null }));
  assert.match(nothing, /worktree name "\/\/\/" has no letters or digits/);
});

test('a name in use is an error, whether patterm, a branch or a directory has it', async () => {
  const dir = project();
  const worktrees = worktreesFor(dir);
  await worktrees.prepare({ worktree: 'taken', child: child('a'), sessionId: null });
  assert.match(await refusal(worktrees.prepare({ worktree: 'taken', child: child('b'), sessionId: null })), /worktree name "taken" is in use: patterm already has a worktree of that name/);
  gitIn(dir, 'branch', 'patterm/mine');
  assert.match(await refusal(worktrees.prepare({ worktree: 'mine', child: child('b'), sessionId: null })), /in use: branch patterm\/mine already exists/);
  mkdirSync(`${dir}.worktrees/occupied`);
  assert.match(await refusal(worktrees.prepare({ worktree: 'occupied', child: child('b'), sessionId: null })), /in use: .*occupied already exists/);
  assert.equal(statusOf(dir), '');
});

test('base: a branch, a commit, or one that does not exist', async () => {
  const dir = project();
  const first = gitIn(dir, 'rev-parse', 'HEAD');
  gitIn(dir, 'branch', 'stable');
  commitFiles(dir, { 'later.txt': 'later\n' }, 'later');
  const onBranch = await worktreesFor(dir).prepare({ worktree: 'from-stable', base: 'stable', child: child('a'), sessionId: null });
  assert.equal(gitIn(onBranch.cwd, 'rev-parse', 'HEAD'), first);
  assert.equal(onBranch.record.baseRef, 'refs/heads/stable');
  assert.ok(!existsSync(join(onBranch.cwd, 'later.txt')));
  const onCommit = await worktreesFor(dir).prepare({ worktree: 'from-commit', base: first.slice(0, 10), child: child('a'), sessionId: null });
  assert.equal(onCommit.record.baseRef, null);
  assert.equal(onCommit.record.baseCommit, first);
  const missing = await refusal(worktreesFor(dir).prepare({ worktree: 'nowhere', base: 'no-such-branch', child: child('a'), sessionId: null }));
  assert.match(missing, /base "no-such-branch" does not name a commit in .*; nothing was spawned/);
  assert.ok(!branchExists(dir, 'patterm/nowhere'));
  assert.equal(await readWorktreeRecord(dir, 'nowhere', stateHome), null);
});

test('a detached HEAD is a fine base: the worktree starts at its commit', async () => {
  const dir = project();
  commitFiles(dir, { 'two.txt': '2\n' }, 'two');
  gitIn(dir, 'checkout', '-q', '--detach', 'HEAD~1');
  const prepared = await worktreesFor(dir).prepare({ worktree: 'detached', child: child('a'), sessionId: null });
  assert.equal(prepared.record.baseRef, null);
  assert.equal(prepared.record.baseCommit, gitIn(dir, 'rev-parse', 'HEAD'));
  assert.equal(gitIn(prepared.cwd, 'rev-parse', '--abbrev-ref', 'HEAD'), 'patterm/detached');
});

test('not a repository, no commits yet, git missing: each a clear error and nothing made', async () => {
  const plain = join(root, 'not-a-repo');
  mkdirSync(plain);
  assert.match(await refusal(worktreesFor(plain).prepare({ worktree: 'x', child: child('a'), sessionId: null })), /is not inside a git repository, so it cannot have worktrees/);
  const empty = makeRepo(join(root, 'empty-repo'));
  assert.match(await refusal(worktreesFor(empty).prepare({ worktree: 'x', child: child('a'), sessionId: null })), /has no commits yet, so there is nothing to base a worktree on/);
  assert.ok(!existsSync(`${empty}.worktrees`));
  const dir = project();
  const path = process.env.PATH;
  process.env.PATH = join(root, 'no-bin');
  try {
    assert.match(await refusal(worktreesFor(dir).prepare({ worktree: 'x', child: child('a'), sessionId: null })), /git is not installed or not on PATH/);
  } finally {
    process.env.PATH = path;
  }
});

test('the child starts at the project directory\'s place in the worktree', async () => {
  const dir = project({ 'packages/web/index.js': '1\n' });
  const prepared = await worktreesFor(join(dir, 'packages', 'web')).prepare({ worktree: 'web', child: child('a'), sessionId: null });
  assert.equal(prepared.record.path, `${dir}.worktrees/web`);
  assert.equal(prepared.cwd, `${dir}.worktrees/web/packages/web`);
});

test('.worktreeinclude copies the git-ignored files it matches, and nothing tracked or merely untracked', async () => {
  const dir = project({ '.gitignore': '.env.local\n.env.production\nbuild/\n', '.worktreeinclude': '.env*\n!.env.production\n', '.env.tracked': 'tracked\n' });
  writeFiles(dir, {
    '.env.local': 'SECRET=1\n',
    '.env.production': 'PROD=1\n',
    'apps/api/.env.local': 'API=1\n',
    '.env.draft': 'untracked, not ignored\n',
    '.env.tracked': 'changed in the checkout\n',
    'build/.env.cache': 'ignored, matched\n',
    'build/out.js': 'ignored, not matched\n',
  });
  const prepared = await worktreesFor(dir).prepare({ worktree: 'env', child: child('a'), sessionId: null });
  const wt = prepared.record.path;
  assert.deepEqual([...prepared.copied].sort(), ['.env.local', 'apps/api/.env.local', 'build/.env.cache']);
  assert.equal(readFileSync(join(wt, '.env.local'), 'utf8'), 'SECRET=1\n');
  assert.equal(readFileSync(join(wt, 'apps/api/.env.local'), 'utf8'), 'API=1\n');
  assert.ok(!existsSync(join(wt, '.env.production')));
  assert.ok(!existsSync(join(wt, '.env.draft')));
  assert.ok(!existsSync(join(wt, 'build/out.js')));
  assert.equal(readFileSync(join(wt, '.env.tracked'), 'utf8'), 'tracked\n');
  assert.equal(statusOf(wt), '');
});

test('submodules arrive initialised', async () => {
  const sub = makeRepo(join(root, 'library'), { 'lib.txt': 'library code\n' });
  const dir = project();
  gitIn(dir, 'submodule', 'add', '-q', sub, 'vendor/library');
  gitIn(dir, 'commit', '-q', '-m', 'add library');
  const prepared = await worktreesFor(dir).prepare({ worktree: 'with-sub', child: child('a'), sessionId: null });
  assert.equal(prepared.submodules, true);
  assert.equal(readFileSync(join(prepared.record.path, 'vendor/library/lib.txt'), 'utf8'), 'library code\n');
  assert.equal(statusOf(prepared.record.path), '');
});

test('the setup command runs in the worktree with PATTERM_WORKTREE, PATTERM_CHECKOUT and PATTERM_PORT', async () => {
  const dir = project();
  const setup = 'printf "%s|%s|%s|%s" "$PATTERM_WORKTREE" "$PATTERM_CHECKOUT" "$PATTERM_PORT" "$(pwd)" > .setup-ran; echo installing';
  const prepared = await worktreesFor(dir, { setup }).prepare({ worktree: 'setup', child: child('a'), sessionId: null });
  const wt = prepared.record.path;
  assert.equal(readFileSync(join(wt, '.setup-ran'), 'utf8'), `${wt}|${dir}|${prepared.record.port}|${wt}`);
  assert.ok(prepared.setupMs !== undefined);
});

test('a failing setup fails with its output and keeps the worktree for inspection', async () => {
  const dir = project();
  const setup = 'echo "resolving packages"; echo "ERR_PNPM_NO_OFFLINE_TARBALL left-pad" >&2; exit 3';
  const message = await refusal(worktreesFor(dir, { setup }).prepare({ worktree: 'broken', child: child('a'), sessionId: null }));
  assert.match(message, /the worktree setup command ".*" exited with code 3; its output:\nresolving packages\nERR_PNPM_NO_OFFLINE_TARBALL left-pad/);
  assert.match(message, /Nothing was spawned\. The worktree is kept for inspection at .*broken \(branch patterm\/broken\)/);
  assert.ok(existsSync(`${dir}.worktrees/broken/README.md`));
  const record = await readWorktreeRecord(dir, 'broken', stateHome);
  assert.equal(record?.status, 'failed');
  assert.match(record?.failure ?? '', /exited with code 3/);
  const slow = await refusal(worktreesFor(dir, { setup: 'sleep 30', setupTimeoutSeconds: 1 }).prepare({ worktree: 'slow', child: child('a'), sessionId: null }));
  assert.match(slow, /did not finish within 1 s \(worktrees\.setupTimeoutSeconds\) and was stopped/);
});

test('a worktree directory deleted by hand: listed as gone, its name stays taken by its branch, and removal tidies up', async () => {
  const dir = project();
  const worktrees = worktreesFor(dir);
  const prepared = await worktrees.prepare({ worktree: 'vanished', child: child('a'), sessionId: 's1' });
  rmSync(prepared.record.path, { recursive: true, force: true });
  const listed = (await worktrees.list({ kind: 'human' })).worktrees.find((entry) => entry.name === 'vanished');
  assert.equal(listed?.present, false);
  assert.equal(listed?.ahead, 0);
  assert.match(await refusal(worktrees.prepare({ worktree: 'vanished', child: child('b'), sessionId: null })), /in use: patterm already has a worktree of that name/);
  const removed = await worktrees.remove({ kind: 'human' }, 'vanished', false);
  assert.deepEqual(removed.reasons, []);
  assert.equal(removed.wasMissing, true);
  assert.equal(removed.branchDeleted, true);
  assert.ok(!branchExists(dir, 'patterm/vanished'));
  assert.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1);
  await worktrees.prepare({ worktree: 'vanished', child: child('b'), sessionId: null });
});

test('worktrees.dir puts worktrees under <dir>/<checkout name>, and never inside the checkout', async () => {
  const dir = project();
  const elsewhere = join(root, 'elsewhere');
  const prepared = await worktreesFor(dir, { dir: elsewhere }).prepare({ worktree: 'x', child: child('a'), sessionId: null });
  assert.equal(prepared.record.path, join(elsewhere, `repo-${repoCount}`, 'x'));
  const inside = await refusal(worktreesFor(dir, { dir: join(dir, 'nested') }).prepare({ worktree: 'y', child: child('a'), sessionId: null }));
  assert.match(inside, /worktrees\.dir in config\.json puts worktrees inside the checkout/);
});
