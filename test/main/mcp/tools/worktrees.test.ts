import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { branchExists, commitFiles, gitIn, makeRepo, statusOf } from '../../../helpers/git-repo.js';
import { readWorktreeRecord } from '../../../../src/main/worktrees/worktree-records.js';

const harness = await startHarness({ worktreeSettings: { setupTimeoutSeconds: 60, setup: 'if [ -f fail-setup ]; then echo "setup says no"; exit 7; fi; echo ok > .setup-done' } });
makeRepo(harness.projectDir, { 'src/app.js': 'console.log(1)\n', '.gitignore': '.setup-done\n' });
const project = realpathSync(harness.projectDir);
const { pane: root, token } = await harness.orchestrator('lead');
const mcp = await harness.connect(token);

interface WorktreeResult {
  name: string;
  path: string;
  branch: string;
  base: string;
  base_commit: string;
  port: number;
  requested_name?: string;
}

async function output(childId: string, pattern: string): Promise<string> {
  const wait = structured<{ matched: boolean; snippet: string }>(await mcp.call('wait_for_pattern', { child_id: childId, pattern, timeout_seconds: 60 }));
  assert.ok(wait.matched, wait.snippet);
  return wait.snippet;
}

function environOf(pid: number): Record<string, string> {
  return Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

test('an agent and a process spawned into worktrees each run in their own directory on their own branch; the checkout stays clean', async () => {
  const agentResult = await mcp.call('spawn_agent', { preset: 'fake', initial_prompt: 'hello', worktree: true });
  assert.equal(agentResult.isError, undefined, textOf(agentResult));
  const agent = structured<{ child_id: string; name: string; worktree: WorktreeResult }>(agentResult);
  assert.equal(agent.name, 'fake-1');
  assert.equal(agent.worktree.name, 'fake-1');
  assert.equal(agent.worktree.branch, 'patterm/fake-1');
  assert.equal(agent.worktree.path, `${project}.worktrees/fake-1`);
  assert.match(textOf(agentResult), /^spawned fake-1 \(child_id \w+\); in worktree fake-1 \(branch patterm\/fake-1, .*\); initial_prompt submitted/);
  const agentInfo = harness.coordinator.info(agent.child_id);
  assert.equal(agentInfo.cwd, agent.worktree.path);
  assert.equal(readlinkSync(`/proc/${agentInfo.process.pid}/cwd`), agent.worktree.path);
  const env = environOf(agentInfo.process.pid);
  assert.equal(env.PATTERM_WORKTREE, agent.worktree.path);
  assert.equal(env.PATTERM_CHECKOUT, project);
  assert.equal(env.PATTERM_PORT, String(agent.worktree.port));
  assert.equal(readFileSync(join(agent.worktree.path, '.setup-done'), 'utf8'), 'ok\n');

  const processResult = await mcp.call('spawn_process', {
    argv: ['sh', '-c', 'echo "in $(pwd) on $(git rev-parse --abbrev-ref HEAD)"; echo "new work" > feature.txt; echo written; exec sleep 600'],
    worktree: 'build feature/x',
    name: 'builder',
  });
  assert.equal(processResult.isError, undefined, textOf(processResult));
  const proc = structured<{ child_id: string; name: string; cwd: string; worktree: WorktreeResult }>(processResult);
  assert.equal(proc.name, 'builder');
  assert.equal(proc.worktree.name, 'build-feature-x');
  assert.equal(proc.worktree.requested_name, 'build feature/x');
  assert.equal(await output(proc.child_id, '^in '), `in ${project}.worktrees/build-feature-x on patterm/build-feature-x`);
  await output(proc.child_id, '^written');
  assert.notEqual(proc.worktree.port, agent.worktree.port);

  assert.equal(statusOf(project), '');
  assert.equal(gitIn(project, 'rev-parse', '--abbrev-ref', 'HEAD'), 'main');
  const record = await readWorktreeRecord(project, 'fake-1', harness.stateHome);
  assert.equal(record?.child.paneId, agent.child_id);
  assert.equal(record?.owner.sessionId, root.sessionId);

  const listed = structured<{ worktrees: Array<{ name: string; untracked: number; dirty: number; ahead: number; panes: Array<{ child_id: string }> }> }>(await mcp.call('worktree_list'));
  const built = listed.worktrees.find((entry) => entry.name === 'build-feature-x')!;
  assert.equal(built.untracked, 1);
  assert.equal(built.ahead, 0);
  assert.deepEqual(built.panes.map((pane) => pane.child_id), [proc.child_id]);

  const diff = await mcp.call('worktree_diff', { name: 'build-feature-x' });
  const diffed = structured<{ files: number; content: string; more: boolean }>(diff);
  assert.equal(diffed.files, 1);
  assert.match(diffed.content, /\+\+\+ b\/feature\.txt\n@@ -0,0 \+1 @@\n\+new work/);
  assert.ok(!existsSync(join(project, 'feature.txt')));

  // Refused while the pane runs in it and its file is untracked; after the pane is gone, still for the file.
  const refused = await mcp.call('worktree_remove', { name: 'build-feature-x' });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /refused to remove worktree build-feature-x:\n1\. 1 untracked file: feature\.txt\n2\. pane builder \(child_id \w+\) is running inside it/);
  await mcp.call('kill', { child_id: proc.child_id, close: true });
  const stillRefused = structured<{ reasons: string[] }>(await mcp.call('worktree_remove', { name: 'build-feature-x' }));
  assert.deepEqual(stillRefused.reasons, ['1 untracked file: feature.txt']);
  const forced = await mcp.call('worktree_remove', { name: 'build-feature-x', force: true });
  assert.equal(forced.isError, undefined, textOf(forced));
  assert.match(textOf(forced), /^removed worktree build-feature-x; branch patterm\/build-feature-x deleted\./);
  assert.ok(!existsSync(`${project}.worktrees/build-feature-x`));
  assert.ok(!branchExists(project, 'patterm/build-feature-x'));
});

test('a shell spawned into a worktree runs its commands there, on its branch, and its pane is the worktree\'s', async () => {
  const shellResult = await mcp.call('spawn_shell', { shell: 'bash', worktree: 'shell work', name: 'sh-wt' });
  assert.equal(shellResult.isError, undefined, textOf(shellResult));
  const shell = structured<{ child_id: string; name: string; cwd: string; integration: string; worktree: WorktreeResult }>(shellResult);
  assert.equal(shell.worktree.name, 'shell-work');
  assert.equal(shell.worktree.branch, 'patterm/shell-work');
  assert.equal(shell.cwd, `${project}.worktrees/shell-work`);
  assert.match(textOf(shellResult), /^started shell sh-wt \(child_id \w+; in worktree shell-work \(branch patterm\/shell-work/);
  const run = structured<{ exit_code: number; output: string; cwd: string }>(
    await mcp.call('run_command', { child_id: shell.child_id, command: 'git rev-parse --abbrev-ref HEAD && echo "$PATTERM_WORKTREE" && echo shell-made > from-shell.txt' }),
  );
  assert.equal(run.exit_code, 0, run.output);
  assert.equal(run.output.trim(), `patterm/shell-work\n${project}.worktrees/shell-work`);
  assert.equal(run.cwd, `${project}.worktrees/shell-work`);
  assert.ok(!existsSync(join(project, 'from-shell.txt')));
  assert.equal(statusOf(project), '');
  const listed = structured<{ worktrees: Array<{ name: string; panes: Array<{ child_id: string }> }> }>(await mcp.call('worktree_list'));
  assert.deepEqual(listed.worktrees.find((entry) => entry.name === 'shell-work')?.panes.map((pane) => pane.child_id), [shell.child_id]);
  await mcp.call('kill', { child_id: shell.child_id, close: true });
  const forced = await mcp.call('worktree_remove', { name: 'shell-work', force: true });
  assert.equal(forced.isError, undefined, textOf(forced));
});

test('a failing setup fails the spawn with its output; nothing is spawned and the worktree stays', async () => {
  const before = harness.coordinator.children(root.id).length;
  gitIn(project, 'checkout', '-q', '-b', 'failing');
  commitFiles(project, { 'fail-setup': '' }, 'the setup fails on this branch');
  gitIn(project, 'checkout', '-q', 'main');
  const result = await mcp.call('spawn_process', { argv: ['sleep', '60'], worktree: 'doomed', base: 'failing', name: 'doomed' });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /exited with code 7; its output:\nsetup says no\nNothing was spawned\. The worktree is kept for inspection at .*doomed/);
  assert.equal(harness.coordinator.children(root.id).length, before);
  assert.ok(existsSync(`${project}.worktrees/doomed/fail-setup`));
  const listed = structured<{ worktrees: Array<{ name: string; status: string }> }>(await mcp.call('worktree_list'));
  assert.equal(listed.worktrees.find((entry) => entry.name === 'doomed')?.status, 'failed');
});

test('worktree arguments are checked: a base without worktree, a name in use, a base that does not exist', async () => {
  const noWorktree = await mcp.call('spawn_process', { argv: ['true'], base: 'main' });
  assert.match(textOf(noWorktree), /base applies only with worktree \(received base "main" without worktree\)/);
  const badType = await mcp.call('spawn_process', { argv: ['true'], worktree: 3 });
  assert.match(textOf(badType), /worktree must be true or a name, received 3/);
  const badBase = await mcp.call('spawn_process', { argv: ['true'], worktree: 'x', base: 'nope' });
  assert.match(textOf(badBase), /base "nope" does not name a commit in .*; nothing was spawned/);
  const inUse = await mcp.call('spawn_process', { argv: ['true'], worktree: 'fake-1' });
  assert.match(textOf(inUse), /worktree name "fake-1" is in use: patterm already has a worktree of that name/);
});

test('only an orchestrator, and only for its own session\'s worktrees', async () => {
  const other = await harness.orchestrator('other-lead');
  const otherMcp = await harness.connect(other.token);
  assert.deepEqual(structured<{ worktrees: unknown[]; others: number }>(await otherMcp.call('worktree_list')).worktrees, []);
  const refused = await otherMcp.call('worktree_remove', { name: 'fake-1', force: true });
  assert.match(textOf(refused), /worktree "fake-1" belongs to another session/);
  assert.ok(existsSync(`${project}.worktrees/fake-1`));
  const child = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'helper' }));
  const asChild = await harness.connect(harness.tokenFor(child.child_id));
  assert.match(textOf(await asChild.call('worktree_list')), /only available to a session's orchestrator/);
});

test('not a git repository: a clear error and nothing spawned', async () => {
  const plain = await startHarness();
  const lead = await plain.orchestrator();
  const client = await plain.connect(lead.token);
  const result = await client.call('spawn_process', { argv: ['sleep', '60'], worktree: true });
  assert.match(textOf(result), /is not inside a git repository, so it cannot have worktrees .*; nothing was spawned/);
  assert.equal(plain.coordinator.children(lead.pane.id).length, 0);
});
