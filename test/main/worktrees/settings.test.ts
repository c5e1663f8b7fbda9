import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { parseFullConfig } from '../../../src/main/tui/config.js';
import { DEFAULT_WORKTREE_SETTINGS, worktreesHome } from '../../../src/main/worktrees/worktree-settings.js';
import { numberedName, sanitizeWorktreeName } from '../../../src/main/worktrees/worktree-name.js';

const CONFIG = '/home/u/.config/patterm/config.json';

test('config.json "worktrees": defaults, values, and each problem named with what was received', () => {
  assert.deepEqual(parseFullConfig({}, CONFIG).worktrees, DEFAULT_WORKTREE_SETTINGS);
  const given = parseFullConfig({ worktrees: { dir: '~/wt', setup: 'pnpm install --offline', setupTimeoutSeconds: 60 } }, CONFIG);
  assert.deepEqual(given.worktrees, { dir: '~/wt', setup: 'pnpm install --offline', setupTimeoutSeconds: 60 });
  assert.deepEqual(given.ui.errors, []);
  const bad = parseFullConfig({ worktrees: { dir: 'relative/dir', setupTimeoutSeconds: 0 } }, CONFIG);
  assert.deepEqual(bad.worktrees, DEFAULT_WORKTREE_SETTINGS);
  assert.match(bad.ui.errors.join('\n'), /^worktrees\.dir: must be an absolute path or start with ~\/ .*\(received "relative\/dir"\); the default applies/m);
  assert.match(bad.ui.errors.join('\n'), /^worktrees\.setupTimeoutSeconds: must be at least 1 \(received 0\)/m);
  assert.match(parseFullConfig({ worktrees: { setpu: 'x' } }, CONFIG).ui.errors[0], /^worktrees\.setpu: /);
});

test('where worktrees go: beside the checkout, or under worktrees.dir by the checkout\'s name', () => {
  assert.equal(worktreesHome('/src/app', DEFAULT_WORKTREE_SETTINGS), '/src/app.worktrees');
  assert.equal(worktreesHome('/src/app', { ...DEFAULT_WORKTREE_SETTINGS, dir: '/var/wt' }), '/var/wt/app');
  assert.equal(worktreesHome('/src/app', { ...DEFAULT_WORKTREE_SETTINGS, dir: '~/wt' }), `${homedir()}/wt/app`);
});

test('names are made plain for git refs and paths', () => {
  assert.equal(sanitizeWorktreeName('fix login/bug'), 'fix-login-bug');
  assert.equal(sanitizeWorktreeName('Café ~^:?*[\\ x'), 'Cafe-x');
  assert.equal(sanitizeWorktreeName('..hidden..name.'), 'hidden.name');
  assert.equal(sanitizeWorktreeName('release.lock'), 'release-lock');
  assert.equal(sanitizeWorktreeName('a@{b}'), 'a-b');
  assert.equal(sanitizeWorktreeName('x'.repeat(100)).length, 64);
  assert.throws(() => sanitizeWorktreeName('//'), /has no letters or digits/);
  for (const wanted of ['fix login/bug', '-leading', 'a..b', 'x.lock', 'tab\there', 'emoji 🚀 name', 'ends with dot.', '@', 'a@{1}', 'UPPER_and_lower.1']) {
    const name = sanitizeWorktreeName(wanted === '@' ? '@x' : wanted);
    execFileSync('git', ['check-ref-format', '--branch', `patterm/${name}`], { stdio: 'ignore' });
  }
  assert.equal(numberedName('claude-1', 2), 'claude-1-2');
  assert.equal(numberedName('y'.repeat(64), 12).length, 64);
});
