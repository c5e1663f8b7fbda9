/**
 * Every git command the worktree room runs goes through here, so each failure
 * names the command, where it ran and what git said on stderr.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { logIgnored } from '../../node/patterm-log.js';
import { declareOwnChild } from '../../node/own-children.js';

/** Output of `git diff` or `git ls-files` in a large repository can run to many megabytes. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Variables that point git at another repository or index. patterm started from a git hook
 * (or a shell that exported them) would otherwise run every command against the wrong place.
 */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE'];

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    readonly args: readonly string[],
    readonly cwd: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    const said = stderr.trim() || `exit code ${exitCode}`;
    super(`\`git ${args.join(' ')}\` in ${cwd} failed: ${said}`);
  }
}

/** git is not installed, or not on PATH. */
export class GitMissingError extends Error {
  override readonly name = 'GitMissingError';
  constructor(cause: string) {
    super(`git is not installed or not on PATH (${cause}); worktrees need git`);
  }
}

export interface GitOptions {
  /** Extra environment (GIT_INDEX_FILE for a private index, and the like). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (`git diff --quiet` exits 1 on a difference). */
  okCodes?: readonly number[];
  /** Written to git's stdin (`--stdin` commands). */
  input?: string;
}

export interface GitResult {
  stdout: string;
  exitCode: number;
}

/** patterm's environment without the variables that would send git to another repository. */
export function withoutRepositoryVariables(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env };
  for (const name of REPOSITORY_VARIABLES) delete clean[name];
  return clean;
}

function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Never wait for a password: a prompt nobody sees would hang the spawn. C locale: messages are quoted in errors as git wrote them.
  return { ...withoutRepositoryVariables(), GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...extra };
}

/** Runs `git <args>` in `cwd`; resolves with stdout, rejects with a GitError naming the command and its stderr. */
export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', [...args], { cwd, env: gitEnvironment(options.env), maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, exitCode: 0 });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // Node reports a missing working directory as the program missing.
        if (!existsSync(cwd)) return reject(new GitError(args, cwd, null, `the directory ${cwd} does not exist`));
        return reject(new GitMissingError(error.message));
      }
      if (typeof code === 'number' && options.okCodes?.includes(code)) return resolve({ stdout, exitCode: code });
      reject(new GitError(args, cwd, typeof code === 'number' ? code : null, stderr || error.message));
    });
    declareOwnChild(child);
    // EPIPE when git exits before reading it all is reported by the callback above.
    child.stdin?.on('error', (error) => logIgnored(`writing to \`git ${args.join(' ')}\``, error));
    child.stdin?.end(options.input ?? '');
  });
}

/** stdout of `git <args>`, without its trailing newline. */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  return (await runGit(cwd, args, options)).stdout.replace(/\n$/, '');
}

/** NUL-separated output (`-z`) as a list, without the empty tail. */
export function splitNul(output: string): string[] {
  return output.split('\0').filter((entry) => entry !== '');
}
