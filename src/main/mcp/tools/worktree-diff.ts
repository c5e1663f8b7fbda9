import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';
import { DEFAULT_STREAM_BYTES, MAX_STREAM_BYTES, WorktreeNameSchema } from './schemas.js';

export const worktreeDiff = defineTool({
  name: 'worktree_diff',
  title: "Show a worktree's change",
  access: 'orchestrator',
  annotations: { readOnlyHint: true },
  description: [
    "Show the change in one of your worktrees against the commit it started from: its commits, staged, unstaged and untracked files (not git-ignored ones), as a git diff stat and patch.",
    `The patch is paged: at most max_bytes (default ${DEFAULT_STREAM_BYTES}) from offset; next_offset continues it while more is true. stat_only: true returns only the stat.`,
    "The worktree's own index is not touched.",
  ].join(' '),
  schema: v.strictObject({
    name: WorktreeNameSchema,
    stat_only: v.optional(v.pipe(v.boolean(), v.description('Only the diff stat (files and lines changed), no patch. Default false.')), false),
    offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER), v.description('Byte offset into the patch, from a previous next_offset. Default 0.')), 0),
    max_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_STREAM_BYTES), v.description(`Read at most this many bytes of the patch. Default ${DEFAULT_STREAM_BYTES}.`))),
  }),
  async run(args, { caller, services }) {
    const { record, diff } = await services.worktrees.diff({ kind: 'session', sessionId: caller.sessionId }, args.name, args.stat_only);
    const patch = Buffer.from(diff.patch, 'utf8');
    const start = Math.min(args.offset, patch.length);
    const end = charBoundary(patch, Math.min(patch.length, start + (args.max_bytes ?? DEFAULT_STREAM_BYTES)));
    const content = patch.subarray(start, end).toString('utf8');
    const more = end < patch.length;
    const result = {
      name: record.name,
      branch: record.branch,
      base_commit: record.baseCommit,
      files: diff.files,
      stat: diff.stat,
      content,
      offset: start,
      next_offset: end,
      total_bytes: patch.length,
      more,
    };
    const headline = diff.files === 0 ? `worktree ${record.name}: no change against ${record.baseCommit.slice(0, 12)}.` : `worktree ${record.name}: ${diff.files} file${diff.files === 1 ? '' : 's'} changed against ${record.baseCommit.slice(0, 12)}${more ? `; patch bytes ${start}-${end} of ${patch.length}, continue with offset ${end}` : ''}:`;
    return ok(result, headline, [diff.stat, content].filter((part) => part !== '').join('\n\n'));
  },
});

/** Backs `end` off the middle of a UTF-8 character, so a page never splits one. */
function charBoundary(bytes: Buffer, end: number): number {
  let at = end;
  while (at < bytes.length && at > 0 && (bytes[at] & 0xc0) === 0x80) at--;
  return at;
}
