import * as v from 'valibot';
import { defineTool, fail, ok } from './tool-kit.js';
import { WorktreeNameSchema } from './schemas.js';

export const worktreeRemove = defineTool({
  name: 'worktree_remove',
  title: 'Remove a worktree',
  access: 'orchestrator',
  annotations: { readOnlyHint: false, destructiveHint: true },
  description: [
    "Remove one of your worktrees and, when nothing on it is unmerged, its branch.",
    'Refused, naming each reason, while it has uncommitted or untracked changes, while its branch has commits on neither its base nor any upstream (a squash-merged branch counts as merged), while its HEAD or a submodule holds commits nothing else has, or while a pane or another process runs inside it.',
    'force: true removes the directory anyway, losing its uncommitted and untracked changes, but keeps a branch that has unmerged commits.',
  ].join(' '),
  schema: v.strictObject({
    name: WorktreeNameSchema,
    force: v.optional(v.pipe(v.boolean(), v.description('Remove it despite the reasons (its uncommitted and untracked changes are lost); a branch with unmerged commits is still kept. Default false.')), false),
  }),
  async run(args, { caller, services }) {
    const outcome = await services.worktrees.remove({ kind: 'session', sessionId: caller.sessionId }, args.name, args.force);
    const result = {
      name: outcome.name,
      removed: outcome.removed,
      reasons: outcome.reasons,
      forced: outcome.forced,
      branch: outcome.branch,
      branch_deleted: outcome.branchDeleted,
      branch_kept: outcome.branchKept,
      squash_merged: outcome.squashMerged,
      was_missing: outcome.wasMissing,
    };
    const numbered = outcome.reasons.map((reason, index) => `${index + 1}. ${reason}`).join('\n');
    if (!outcome.removed) {
      return fail(
        `refused to remove worktree ${outcome.name}:\n${numbered}\nCommit or discard the changes, merge or push the branch, or stop what runs there; force: true removes it anyway (losing uncommitted work) and keeps a branch with unmerged commits.`,
        result,
      );
    }
    const branch = outcome.branchDeleted ? `branch ${outcome.branch} deleted${outcome.squashMerged ? ' (its change is on the base: squash-merged)' : ''}` : outcome.branchKept ? `branch ${outcome.branch} kept: ${outcome.branchKept}` : `branch ${outcome.branch} was already gone`;
    const overridden = outcome.forced && outcome.reasons.length > 0 ? `\nforce overrode:\n${numbered}` : '';
    return ok(result, `removed worktree ${outcome.name}${outcome.wasMissing ? ' (its directory was already gone)' : ''}; ${branch}.`, overridden ? overridden.trimStart() : undefined);
  },
});
