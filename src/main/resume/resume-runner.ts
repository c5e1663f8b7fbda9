/**
 * Starts a layout record's sessions again (resume-plan.ts decides what each
 * pane gets): every session at once, each root first, then its children under
 * it with the names they had, so an orchestrator's notes that name them still
 * hold. A process a sub-agent had spawned is handed back to that sub-agent.
 * Each orchestrator then hears, once, that it was resumed and which children
 * are back; what came back and what was skipped, and why, is the outcome.
 */
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import type { AgentLauncher } from '../contracts.js';
import type { PaneRecord } from './layout-record.js';
import type { PaneDecision, SessionPlan } from './resume-plan.js';

/** Reopens a shell pane over its ledger in its last directory (the shell feature provides it). */
export type ShellRestarter = (pane: PaneRecord, place: { parentId?: PaneId; name: string; owner: PaneRecord['owner'] }) => Promise<PaneInfo>;

export interface ResumeRunnerDeps {
  launcher: AgentLauncher;
  /** A pane a sub-agent spawned goes back under that sub-agent's care (ChildRegistry.record). */
  adoptChild(pane: PaneInfo, spawnerId: PaneId, notifyOnExit: boolean): void;
  /** Types `[system] <text>` into an agent once it is idle at its prompt (ParentNotices). */
  tellAgent(paneId: PaneId, text: string): void;
  reopenShell?: ShellRestarter;
}

export type BackOutcome = { kind: 'resumed' | 'fresh' | 'started' | 'reopened'; pane: PaneRecord; info: PaneInfo; detail: string };
export type PaneOutcome = BackOutcome | { kind: 'skipped' | 'failed'; pane: PaneRecord; detail: string };

export function isBack(outcome: PaneOutcome): outcome is BackOutcome {
  return 'info' in outcome;
}

export interface SessionOutcome {
  root: PaneOutcome;
  children: PaneOutcome[];
}

export async function runResume(plans: SessionPlan[], deps: ResumeRunnerDeps): Promise<SessionOutcome[]> {
  return Promise.all(plans.map((plan) => resumeSession(plan, deps)));
}

async function resumeSession(plan: SessionPlan, deps: ResumeRunnerDeps): Promise<SessionOutcome> {
  const root = await start(plan.root, undefined, deps);
  if (!isBack(root)) {
    const why = `its session's root ${plan.root.pane.name} did not come back`;
    return { root, children: plan.children.map((child): PaneOutcome => (child.action === 'skip' ? { kind: 'skipped', pane: child.pane, detail: child.reason } : { kind: 'skipped', pane: child.pane, detail: why })) };
  }
  // Each child is ready (or gave up) before the orchestrator hears it is back, so it can talk to them at once.
  const children = await Promise.all(plan.children.map((child) => start(child, root.info.id, deps)));
  // Old ids to new, for the spawner of each process a sub-agent had started.
  const ids = new Map<string, PaneId>([[plan.root.pane.id, root.info.id]]);
  for (const child of children) if (isBack(child)) ids.set(child.pane.id, child.info.id);
  for (const child of children) {
    if (!isBack(child)) continue;
    const spawner = child.pane.spawnedBy !== undefined ? ids.get(child.pane.spawnedBy) : undefined;
    deps.adoptChild(child.info, spawner ?? root.info.id, child.pane.notifyOnExit ?? true);
  }
  if (root.pane.kind === 'agent') deps.tellAgent(root.info.id, resumedNotice(children));
  return { root, children };
}

async function start(decision: PaneDecision, parentId: PaneId | undefined, deps: ResumeRunnerDeps): Promise<PaneOutcome> {
  const { pane } = decision;
  if (decision.action === 'skip') return { kind: 'skipped', pane, detail: decision.reason };
  const common = {
    name: pane.name,
    parentId,
    owner: pane.owner,
    ...(pane.ownSize ? { ownSize: { ...pane.ownSize } } : {}),
    notifyOnExit: pane.notifyOnExit,
    launch: { ...(pane.worktree ? { worktree: { ...pane.worktree } } : {}), tags: [...pane.tags] },
  };
  try {
    switch (decision.action) {
      case 'resume':
      case 'fresh': {
        const { pane: info } = await deps.launcher.spawnAgent({
          ...common,
          preset: pane.preset!,
          workingDir: pane.workingDir ?? pane.cwd,
          resume: { conversation: decision.action === 'resume' ? decision.conversation : null },
          waitReady: parentId !== undefined,
        });
        const detail = decision.action === 'resume' ? `conversation ${decision.conversation.id} resumed` : `started afresh: ${decision.why}`;
        return { kind: decision.action === 'resume' ? 'resumed' : 'fresh', pane, info, detail };
      }
      case 'start': {
        const info = await deps.launcher.spawnProcess({
          ...common,
          preset: pane.preset ?? undefined,
          argv: pane.preset === null ? pane.argv : undefined,
          shell: pane.preset === null ? pane.shell : undefined,
          env: pane.env,
          workingDir: pane.workingDir ?? pane.cwd,
        });
        return { kind: 'started', pane, info, detail: 'started again' };
      }
      case 'reopen': {
        if (!deps.reopenShell) return { kind: 'skipped', pane, detail: 'this patterm cannot reopen shell panes' };
        const info = await deps.reopenShell(pane, { parentId, name: pane.name, owner: pane.owner });
        return { kind: 'reopened', pane, info, detail: `reopened in ${pane.cwd}` };
      }
    }
  } catch (error) {
    return { kind: 'failed', pane, detail: (error as Error).message };
  }
}

/** What an orchestrator is told: its conversation goes on, and which of its children are back under which ids. */
export function resumedNotice(children: PaneOutcome[]): string {
  const back = children.filter(isBack);
  const lost = children.filter((child) => !isBack(child));
  const parts = ['patterm was restarted and resumed this session.'];
  if (children.length === 0) parts.push('You have no children.');
  if (back.length > 0) parts.push(`Back: ${back.map((child) => `${child.pane.name} (child_id ${child.info.id}, ${child.detail})`).join('; ')}.`);
  if (lost.length > 0) parts.push(`Not back: ${lost.map((child) => `${child.pane.name} (${child.detail})`).join('; ')}.`);
  return parts.join(' ');
}
