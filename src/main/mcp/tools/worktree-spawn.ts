/**
 * The part of a spawn tool that puts its child in a worktree (spawn_agent,
 * spawn_process, spawn_shell): validate `worktree`/`base`, settle the child's
 * name, prepare the worktree, and afterwards tie the pane to its record.
 */
import type { PaneInfo } from '../../../shared/pane-types.js';
import { reserveName } from '../services/pane-names.js';
import type { PreparedWorktree } from '../../worktrees/worktree-create.js';
import { WorktreeError } from '../../worktrees/worktree-error.js';
import { ignoreError } from '../../../node/patterm-log.js';
import { ToolError } from './tool-kit.js';
import type { ToolContext } from './tool-context.js';

/** Default child names tried (`<base>-1` …) for one free both as a pane name and as a worktree name. */
const MAX_DEFAULT_NAMES = 100;

export interface WorktreeArgs {
  worktree?: boolean | string;
  base?: string;
  /** The child's name as the caller gave it. */
  name?: string;
}

export interface SpawnWorktree {
  /** The child's name: the caller's, or, when none was given, the worktree's (held for this spawn until `release`). */
  childName: string;
  release(): void;
  /** Where the child starts, and the variables it gets (PATTERM_WORKTREE, PATTERM_CHECKOUT, PATTERM_PORT). */
  cwd: string;
  env: Record<string, string>;
  prepared: PreparedWorktree;
  /** Call with the started pane: its record then names it. */
  attach(pane: PaneInfo): Promise<void>;
  /** The result's `worktree` field. */
  result: Record<string, unknown>;
  /** "; in worktree fix-login (branch patterm/fix-login)" for the result's headline. */
  headline: string;
  /** The tail of an error when the child did not start after the worktree was made. */
  keptNote: string;
}

/**
 * A spawn tool's start (spawn_agent, spawn_process, spawn_shell): the child's
 * name, when the caller gave one, is reserved and its worktree, when asked
 * for, prepared; both are let go once `start` has put the pane in the tree or
 * failed. A failure that is not already a ToolError becomes one saying what
 * could not be done (`what`: "start process preset \"dev\"") and that the
 * worktree made for it is kept.
 */
export async function startChild<T>(
  context: ToolContext,
  args: WorktreeArgs,
  child: { kind: string; preset: string | null; nameBase: string },
  what: string,
  start: (worktree: SpawnWorktree | null) => Promise<T>,
): Promise<{ started: T; worktree: SpawnWorktree | null }> {
  const releaseName = args.name ? reserveName(context.services.coordinator, context.caller.paneId, args.name) : () => undefined;
  let worktree: SpawnWorktree | null = null;
  try {
    worktree = await prepareSpawnWorktree(context, args, child);
    return { started: await start(worktree), worktree };
  } catch (cause) {
    if (cause instanceof ToolError) throw cause;
    throw new ToolError(`could not ${what}: ${(cause as Error).message}${worktree?.keptNote ?? ''}`);
  } finally {
    releaseName();
    worktree?.release();
  }
}

/**
 * Prepares the worktree the arguments ask for, or returns null when they ask for none.
 * `nameBase` is what a default child name starts with (the preset's name, "shell", …).
 * A name the caller gave must already be reserved (reserveName); a default one is reserved here.
 */
async function prepareSpawnWorktree(
  context: ToolContext,
  args: WorktreeArgs,
  child: { kind: string; preset: string | null; nameBase: string },
): Promise<SpawnWorktree | null> {
  if (args.worktree === undefined || args.worktree === false) {
    if (args.base !== undefined) throw new ToolError(`base applies only with worktree (received base ${JSON.stringify(args.base)} without worktree)`);
    return null;
  }
  const { services, caller, progress } = context;
  const worktrees = services.worktrees;
  let release = () => undefined as void;
  try {
    const named = args.name !== undefined;
    let childName = args.name;
    // A worktree named after the child needs a child name no worktree has; one named by the caller does not.
    if (childName === undefined) ({ name: childName, release } = await freeDefaultName(context, child.nameBase, args.worktree === true));
    const wanted = named || args.worktree !== true ? args.worktree : childName;
    const preparing = worktrees.prepare({ worktree: wanted, base: args.base, child: { name: childName, kind: child.kind, preset: child.preset }, sessionId: caller.sessionId });
    const prepared = await progress.during(preparing, (elapsedMs) => `preparing a worktree (git worktree add, submodules, setup): ${Math.round(elapsedMs / 1000)} s`);
    const { record } = prepared;
    return {
      childName,
      release,
      cwd: prepared.cwd,
      env: prepared.env,
      prepared,
      attach: async (pane) => {
        // The layout record names the worktree, so a resume starts the pane there again, or says it is gone.
        if (pane.launch) services.coordinator.updateLaunch(pane.id, { worktree: { name: record.name, path: record.path } });
        await worktrees.attachPane(record.name, pane).catch(ignoreError(`noting pane ${pane.id} in the record of worktree ${record.name}`));
      },
      result: {
        name: record.name,
        path: record.path,
        branch: record.branch,
        base: record.baseRef ?? record.baseCommit,
        base_commit: record.baseCommit,
        port: record.port,
        ...(prepared.requestedName !== undefined ? { requested_name: prepared.requestedName } : {}),
        copied: prepared.copied,
        submodules: prepared.submodules,
        ...(prepared.setupMs !== undefined ? { setup_ms: Math.round(prepared.setupMs) } : {}),
      },
      headline: `; in worktree ${record.name} (branch ${record.branch}, ${prepared.cwd})${prepared.requestedName !== undefined ? `, named from ${JSON.stringify(prepared.requestedName)}` : ''}`,
      keptNote: ` The worktree ${record.name} (${record.path}, branch ${record.branch}) was made and is kept; remove it with worktree_remove.`,
    };
  } catch (error) {
    release();
    if (error instanceof WorktreeError) throw new ToolError(error.message, error.details);
    throw error;
  }
}

/** `<base>-1`, `<base>-2`, …: the first that no running pane of the session (and, asked, no worktree) has, reserved. */
async function freeDefaultName(context: ToolContext, base: string, freeAsWorktree: boolean): Promise<{ name: string; release(): void }> {
  const { coordinator, worktrees } = context.services;
  for (let n = 1; n <= MAX_DEFAULT_NAMES; n++) {
    const candidate = `${base}-${n}`;
    let release: () => void;
    try {
      release = reserveName(coordinator, context.caller.paneId, candidate);
    } catch (error) {
      if (error instanceof ToolError) continue;
      throw error;
    }
    if (!freeAsWorktree || (await worktrees.whyNameInUse(candidate)) === null) return { name: candidate, release };
    release();
  }
  throw new ToolError(`names ${base}-1 to ${base}-${MAX_DEFAULT_NAMES} are all taken by panes or worktrees; give name (and worktree) yourself`);
}
