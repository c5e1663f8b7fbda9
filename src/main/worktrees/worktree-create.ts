/**
 * Making a worktree for a child: a branch `patterm/<name>` at the base, its
 * checkout outside the project's, submodules initialised, `.worktreeinclude`
 * files copied and the setup command run. The record is written before git
 * makes anything, so a crash at any point leaves a worktree patterm knows of.
 * A failure after the worktree exists keeps it, for inspection.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { findCheckout, resolveBase } from './checkout.js';
import { git, GitError } from './git.js';
import { pathExists, removeIfEmpty } from './path-exists.js';
import { choosePort } from './worktree-port.js';
import { deleteWorktreeRecord, listWorktreeRecords, readWorktreeRecord, writeWorktreeRecord, type WorktreeRecord } from './worktree-records.js';
import { branchFor, numberedName, sanitizeWorktreeName } from './worktree-name.js';
import { worktreesHome } from './worktree-settings.js';
import { copyIncludedFiles } from './worktree-include.js';
import { describeSetupFailure, runSetup } from './setup-command.js';
import { WorktreeError } from './worktree-error.js';
import type { WorktreeContext } from './worktree-context.js';
import { ignoreError } from '../../node/patterm-log.js';

/** `worktree: true` tries the child's name, then `<name>-2` … up to this. */
const MAX_NUMBERED_NAMES = 100;

export interface WorktreeRequest {
  /** A name for the worktree, or true to make one from the child's name. */
  worktree: true | string;
  /** A ref or commit; default: what the project checkout has checked out. */
  base?: string;
  child: { name: string; kind: string; preset: string | null };
  /** The session the child joins (null when it starts a session of its own: attachPane fills it in). */
  sessionId: string | null;
}

export interface PreparedWorktree {
  record: WorktreeRecord;
  /** Where the child starts: the worktree, at the place the project directory has in the checkout. */
  cwd: string;
  /** PATTERM_WORKTREE, PATTERM_CHECKOUT and PATTERM_PORT, for the setup command and the child. */
  env: Record<string, string>;
  /** What the caller asked for, when the name had to be made plain or numbered. */
  requestedName?: string;
  /** `.worktreeinclude` files copied from the checkout. */
  copied: string[];
  submodules: boolean;
  /** How long the setup command ran, when there is one. */
  setupMs?: number;
}

export function worktreeEnvironment(record: WorktreeRecord): Record<string, string> {
  return { PATTERM_WORKTREE: record.path, PATTERM_CHECKOUT: record.checkout, PATTERM_PORT: String(record.port) };
}

export async function createWorktree(context: WorktreeContext, request: WorktreeRequest): Promise<PreparedWorktree> {
  const checkout = await findCheckout(context.projectDir);
  const made = await context.lock.run('create', () => makeWorktree(context, checkout.top, request));
  const { record } = made;
  const env = worktreeEnvironment(record);
  const start = checkout.subdir && (await pathExists(join(record.path, checkout.subdir))) ? join(record.path, checkout.subdir) : record.path;
  const prepared: PreparedWorktree = { record, cwd: start, env, copied: [], submodules: false, ...(made.requestedName !== undefined ? { requestedName: made.requestedName } : {}) };
  try {
    prepared.submodules = await initSubmodules(record.path);
    prepared.copied = (await copyIncludedFiles(checkout.top, record.path)).copied;
    const command = context.settings.setup;
    if (command !== undefined) {
      const timeoutMs = context.settings.setupTimeoutSeconds * 1000;
      const outcome = await runSetup({ command, cwd: record.path, env, timeoutMs, instanceId: context.instanceId, label: `setup-${record.name}` });
      if (!outcome.ok) throw new WorktreeError(describeSetupFailure(command, outcome, timeoutMs), { setup_output: outcome.output, setup_exit_code: outcome.exitCode });
      prepared.setupMs = outcome.durationMs;
    }
  } catch (error) {
    const reason = (error as Error).message;
    // The record still says "creating" if this fails; the reason goes to the caller either way.
    await writeWorktreeRecord(context.projectDir, { ...record, status: 'failed', failure: reason }, context.stateHome).catch(ignoreError(`marking worktree ${record.name} failed in its record`));
    const details = error instanceof WorktreeError ? error.details : {};
    throw new WorktreeError(
      `could not prepare worktree ${record.name}: ${reason}\nNothing was spawned. The worktree is kept for inspection at ${record.path} (branch ${record.branch}); remove it with worktree_remove name ${JSON.stringify(record.name)}.`,
      { ...details, worktree: record.name, path: record.path, branch: record.branch },
    );
  }
  prepared.record = { ...record, status: 'ready' };
  await writeWorktreeRecord(context.projectDir, prepared.record, context.stateHome);
  return prepared;
}

/** Under the creation lock: picks the name and the port, writes the record, and has git make the branch and the worktree. */
async function makeWorktree(context: WorktreeContext, top: string, request: WorktreeRequest): Promise<{ record: WorktreeRecord; requestedName?: string }> {
  const base = await resolveBase(top, request.base);
  // A directory deleted by hand: git forgets its worktree, so the name's branch shows as the only thing left.
  await git(top, ['worktree', 'prune']);
  const home = worktreesHome(top, context.settings);
  if (home === top || home.startsWith(`${top}/`)) {
    throw new WorktreeError(`worktrees.dir in config.json puts worktrees inside the checkout (${home}), where its test runners and git status would see them; choose a directory outside ${top}`);
  }
  const wanted = request.worktree === true ? request.child.name : request.worktree;
  const plain = sanitizeWorktreeName(wanted);
  let name = plain;
  if (request.worktree === true) {
    name = await firstFreeName(context, top, home, plain);
  } else {
    const problem = await nameInUse(context, top, home, plain);
    if (problem) throw new WorktreeError(`worktree name ${JSON.stringify(plain)} is in use: ${problem}; choose another name (worktree_list shows patterm's worktrees)`, { worktree: plain });
  }
  const { records } = await listWorktreeRecords(context.projectDir, context.stateHome);
  await mkdir(home, { recursive: true });
  // Git lists worktrees by their real path; the record must name them the same way.
  const realHome = await realpath(home);
  const record: WorktreeRecord = {
    version: 1,
    name,
    path: join(realHome, name),
    branch: branchFor(name),
    baseRef: base.ref,
    baseGiven: base.given,
    baseCommit: base.commit,
    checkout: top,
    createdAt: new Date().toISOString(),
    port: await choosePort(new Set(records.map((entry) => entry.port))),
    status: 'creating',
    child: { ...request.child, paneId: null },
    owner: { instanceId: context.instanceId, sessionId: request.sessionId },
  };
  await writeWorktreeRecord(context.projectDir, record, context.stateHome);
  try {
    // The commit, not the ref: a branch made from origin/main would otherwise track it, and a push would go there.
    await git(top, ['worktree', 'add', '--no-track', '-b', record.branch, record.path, base.commit]);
  } catch (error) {
    await deleteWorktreeRecord(context.projectDir, name, context.stateHome);
    await removeIfEmpty(realHome);
    const said = error instanceof GitError ? error.message : (error as Error).message;
    throw new WorktreeError(`could not create worktree ${name}: ${said}; nothing was spawned`, { worktree: name });
  }
  return { record, ...(name !== wanted ? { requestedName: wanted } : {}) };
}

async function firstFreeName(context: WorktreeContext, top: string, home: string, base: string): Promise<string> {
  for (let n = 1; n <= MAX_NUMBERED_NAMES; n++) {
    const candidate = numberedName(base, n);
    if ((await nameInUse(context, top, home, candidate)) === null) return candidate;
  }
  throw new WorktreeError(`worktree names ${base} to ${numberedName(base, MAX_NUMBERED_NAMES)} are all in use; remove some (worktree_list shows them) or give a name`);
}

/** Why worktree `name` cannot be made in the project, or null when it is free. */
export async function whyNameInUse(context: WorktreeContext, name: string): Promise<string | null> {
  const { top } = await findCheckout(context.projectDir);
  return nameInUse(context, top, worktreesHome(top, context.settings), name);
}

/** Why `name` cannot be used, or null: patterm's record, the branch or the directory already exists. */
async function nameInUse(context: WorktreeContext, top: string, home: string, name: string): Promise<string | null> {
  // A record that cannot be read still stands for a worktree: the name stays taken.
  if (await readWorktreeRecord(context.projectDir, name, context.stateHome).catch((error: Error) => error)) {
    return `patterm already has a worktree of that name`;
  }
  const branch = branchFor(name);
  const exists = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [1] });
  if (exists !== '') return `branch ${branch} already exists`;
  const dir = join(home, name);
  if (await pathExists(dir)) return `${dir} already exists`;
  return null;
}

/** `git submodule update --init --recursive` when the worktree has submodules; true if it ran. */
async function initSubmodules(path: string): Promise<boolean> {
  if (!(await pathExists(join(path, '.gitmodules')))) return false;
  await git(path, ['submodule', 'update', '--init', '--recursive']);
  return true;
}
