/**
 * Worktrees in the real TUI (tmux): "Spawn in new worktree…" starts a pane in
 * a worktree of its own, and the tree shows its branch and changed files;
 * quitting patterm, SIGTERM and SIGKILL never remove a worktree or a branch,
 * the next start lists them on the status line, and "Review worktrees…"
 * removes them through the same safety checks as worktree_remove.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { TmuxPatterm } from './tmux-harness.js';
import { scratchDir } from '../../helpers/scratch-dir.js';
import { branchExists, gitIn, makeRepo, statusOf } from '../../helpers/git-repo.js';
import { listWorktreeRecords } from '../../../src/main/worktrees/worktree-records.js';

const root = realpathSync(scratchDir('patterm-tui-worktrees-'));
const stateHome = join(root, 'state');
let project = '';

/** Each test has a repository of its own; patterm starts in it, with the state directory the test reads. */
function newProject(name: string): void {
  project = makeRepo(join(root, name), { 'README.md': 'hello\n' });
}

/** Wide enough for a refusal's first reason in the status line. */
function start(): TmuxPatterm {
  return TmuxPatterm.start({ projectDir: project, env: { XDG_STATE_HOME: stateHome }, cols: 220 });
}

/** The palette's "Spawn in new worktree…", the bash preset, and a worktree name; waits for bash's prompt. */
async function spawnBashInWorktree(patterm: TmuxPatterm, name: string): Promise<void> {
  await patterm.runPalette('new worktree', 'Spawn in new worktree…');
  await patterm.waitFor(/Preset name/, 'the preset list');
  patterm.type('bash');
  await patterm.waitFor(/Run process in a worktree.*: bash/, 'the bash entry');
  patterm.keys('Enter');
  await patterm.waitFor(/Worktree name for bash/, 'the worktree name prompt');
  patterm.type(name);
  patterm.keys('Enter');
  await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '$', `bash in worktree ${name}`);
}

test('"Spawn in new worktree…" starts a pane in its own worktree; the tree shows its branch and changed files', async () => {
  newProject('spawned');
  const patterm = start();
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await spawnBashInWorktree(patterm, 'tui work');
    patterm.type('pwd; git rev-parse --abbrev-ref HEAD');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes(`${project}.worktrees/tui-work`), 'the worktree as the working directory');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('patterm/tui-work'), 'the worktree\'s branch');
    await patterm.waitFor(/▶ bash ⎇ patterm\/tui-work/, 'the branch in the tree');
    patterm.type('touch one two && git add one');
    patterm.keys('Enter');
    await patterm.waitFor(/▶ bash ⎇ patterm\/tui-work ±2/, 'two changed files in the tree');
    assert.equal(statusOf(project), '');
  } finally {
    patterm.stop();
  }
});

test('quit, SIGTERM and SIGKILL leave every worktree and branch; the next start lists them and the review removes them safely', async () => {
  newProject('survivor');
  for (const ending of ['quit', 'SIGTERM', 'SIGKILL'] as const) {
    const patterm = start();
    try {
      await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
      await spawnBashInWorktree(patterm, `kept-${ending}`);
      if (ending === 'SIGKILL') {
        // Work that only the branch holds: the review must refuse to remove it.
        patterm.type('echo work > work.txt && git add work.txt && git commit -qm "unmerged work" && echo committed');
        patterm.keys('Enter');
        await patterm.waitFor((lines) => patterm.mainArea(lines).includes('committed'), 'the commit');
      }
      await patterm.waitFor(new RegExp(`⎇ patterm/kept-${ending}`), 'the branch in the tree');
      if (ending === 'quit') await patterm.runPalette('quit', 'Quit');
      else process.kill(patterm.pattermPid()!, ending);
      await patterm.waitFor(/\[patterm exited \d+\]/, `patterm to end by ${ending}`);
    } finally {
      patterm.stop();
    }
    assert.ok(existsSync(`${project}.worktrees/kept-${ending}/README.md`), `the worktree survives ${ending}`);
    assert.ok(branchExists(project, `patterm/kept-${ending}`), `the branch survives ${ending}`);
  }
  assert.deepEqual((await listWorktreeRecords(project, stateHome)).records.map((record) => record.name), ['kept-quit', 'kept-SIGTERM', 'kept-SIGKILL']);

  const patterm = start();
  try {
    await patterm.waitFor(/3 worktrees left from earlier runs: kept-quit, kept-SIGTERM, kept-SIGKILL/, 'the leftovers on the status line');
    await patterm.runPalette('review worktrees', 'Review worktrees…');
    await patterm.waitFor(/kept-SIGKILL +patterm\/kept-SIGKILL/, 'the review list');
    patterm.type('kept-SIGKILL');
    await patterm.waitFor(/Review worktrees/, 'the filtered list');
    patterm.keys('Enter');
    await patterm.waitFor(/Remove \(refused if it would lose work\)/, 'the actions');
    patterm.keys('Enter');
    await patterm.waitFor(/Worktree kept-SIGKILL not removed: 1\) branch patterm\/kept-SIGKILL has 1 commit on neither main nor any upstream/, 'the refusal');
    assert.ok(existsSync(`${project}.worktrees/kept-SIGKILL`));

    await patterm.runPalette('review worktrees', 'Review worktrees…');
    patterm.type('kept-quit');
    await patterm.waitFor(/kept-quit +patterm\/kept-quit/, 'kept-quit in the list');
    patterm.keys('Enter');
    await patterm.waitFor(/Remove \(refused if it would lose work\)/, 'the actions');
    patterm.keys('Enter');
    await patterm.waitFor(/Removed worktree kept-quit; branch patterm\/kept-quit deleted/, 'the removal');
    assert.ok(!existsSync(`${project}.worktrees/kept-quit`));
    assert.ok(!branchExists(project, 'patterm/kept-quit'));
    assert.ok(branchExists(project, 'patterm/kept-SIGKILL'));
    assert.equal(gitIn(project, 'worktree', 'list').split('\n').length, 3);
  } finally {
    patterm.stop();
  }
});
