/**
 * Real git repositories for tests: made in a scratch directory, with an
 * author set in the repository itself so that no global git config is needed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Git since 2.38.1 refuses to clone a submodule from a local path unless told to; a user with
 * local submodules sets this in their config, and the tests set it for themselves and patterm.
 */
export function allowLocalSubmodules(): void {
  process.env.GIT_CONFIG_COUNT = '1';
  process.env.GIT_CONFIG_KEY_0 = 'protocol.file.allow';
  process.env.GIT_CONFIG_VALUE_0 = 'always';
}

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } }).replace(/\n$/, '');
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** `git init` with branch main and an author; with files, a first commit of them. */
export function makeRepo(dir: string, files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'config', 'user.name', 'patterm test');
  gitIn(dir, 'config', 'user.email', 'test@patterm.invalid');
  gitIn(dir, 'config', 'commit.gpgsign', 'false');
  if (Object.keys(files).length > 0) commitFiles(dir, files, 'first commit');
  return dir;
}

export function commitFiles(dir: string, files: Record<string, string>, message: string): string {
  writeFiles(dir, files);
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', message);
  return gitIn(dir, 'rev-parse', 'HEAD');
}

/** `git status --porcelain` of the checkout: '' when clean. */
export function statusOf(dir: string): string {
  return gitIn(dir, 'status', '--porcelain', '--untracked-files=all');
}

export function branchExists(dir: string, branch: string): boolean {
  return gitIn(dir, 'branch', '--list', branch) !== '';
}
