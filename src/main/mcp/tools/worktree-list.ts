import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import type { WorktreeReport } from '../../worktrees/worktree-report.js';

export const worktreeList = defineTool({
  name: 'worktree_list',
  title: 'List your worktrees',
  access: 'orchestrator',
  annotations: { readOnlyHint: true },
  description: [
    "List the git worktrees patterm made for your session's children (spawn_agent / spawn_process with worktree).",
    'For each: name, path, branch, base, ahead/behind against the base (commits of its own / new on the base), its upstream with ahead/behind if it was pushed, dirty (changed tracked files) and untracked file counts, and the live panes inside it.',
    'present: false means its directory was deleted; worktree_remove tidies up what is left.',
  ].join(' '),
  schema: v.strictObject({}),
  async run(_args, { caller, services }) {
    const { worktrees, others, problems } = await services.worktrees.list({ kind: 'session', sessionId: caller.sessionId });
    const listed = worktrees.map(toResult);
    const note = others > 0 ? ` (${others} more belong to other sessions or earlier runs; the user reviews those from the command palette)` : '';
    const result = { worktrees: listed, others, ...(problems.length > 0 ? { problems } : {}) };
    if (listed.length === 0) return ok(result, `no worktrees of yours${note}.`);
    return ok(result, `${listed.length} worktree${listed.length === 1 ? '' : 's'}${note}:`, worktrees.map(describe).join('\n'));
  },
});

function toResult(report: WorktreeReport): Record<string, unknown> {
  return {
    name: report.name,
    path: report.path,
    branch: report.branch,
    base: report.base,
    base_commit: report.baseCommit,
    created_at: report.createdAt,
    status: report.status,
    ...(report.failure ? { failure: report.failure } : {}),
    present: report.present,
    ahead: report.ahead,
    behind: report.behind,
    upstream: report.upstream,
    dirty: report.dirty,
    untracked: report.untracked,
    ...(report.otherHead ? { other_head: report.otherHead } : {}),
    panes: report.panes.map((pane) => ({ child_id: pane.id, name: pane.name })),
    child: report.child.name,
    port: report.port,
    ...(report.problem ? { problem: report.problem } : {}),
  };
}

function describe(report: WorktreeReport): string {
  if (!report.present) return `${report.name}  ${report.branch}  GONE (directory deleted)${report.ahead ? `, branch ${report.ahead} ahead of ${report.base}` : ''}`;
  const standing = report.ahead === null ? 'branch gone' : `${report.ahead} ahead, ${report.behind} behind ${report.base}`;
  const upstream = report.upstream ? `; ${report.upstream.name} ${report.upstream.ahead} ahead, ${report.upstream.behind} behind` : '';
  const panes = report.panes.length > 0 ? `; panes: ${report.panes.map((pane) => pane.name).join(', ')}` : '';
  const failed = report.status === 'failed' ? '; SETUP FAILED' : '';
  return `${report.name}  ${report.branch}  ${standing}${upstream}; ${report.dirty} dirty, ${report.untracked} untracked${panes}${failed}  ${report.path}`;
}
