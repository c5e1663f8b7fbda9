import * as v from 'valibot';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { ChildIdSchema, PaneNameSchema } from './schemas.js';
import { shellTarget } from '../services/shell-target.js';
import { describeOutcome, HISTORY_OUTPUT_CAP, type ShellSession } from '../../shells/index.js';

const DEFAULT_LAST_N = 20;
const MAX_LAST_N = 1000;

export const commandHistory = defineTool({
  name: 'command_history',
  title: "Read a shell's command ledger",
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    "Read a shell pane's ledger: every command run in it, by anyone, oldest first, as records (seq, command, writer: \"human\" or \"agent:<name>\", status, exit_code, duration_ms, cwd, output with its head and tail).",
    'status is "done", "running", "not_run" (the shell could not parse it), or "lost": it started and patterm ended before it did, so its end was never seen.',
    'Name the shell by child_id, or by name: the ledger outlives the pane, also one from an earlier run of patterm in this project.',
    `since_seq returns only later commands; last_n the last n (default ${DEFAULT_LAST_N}). Each record's output is short here; wait_for_command with its seq returns more, and output_file holds all of it.`,
  ].join(' '),
  schema: v.strictObject({
    child_id: v.optional(ChildIdSchema),
    name: v.optional(PaneNameSchema),
    since_seq: v.optional(v.pipe(v.number(), v.integer((issue) => `since_seq must be a whole number, received ${issue.input}`), v.minValue(0, (issue) => `since_seq must be 0 or more, received ${issue.input}`), v.maxValue(Number.MAX_SAFE_INTEGER), v.description('Only commands with a higher seq.'))),
    last_n: v.optional(v.pipe(v.number(), v.integer((issue) => `last_n must be a whole number, received ${issue.input}`), v.minValue(1, (issue) => `last_n must be at least 1, received ${issue.input}`), v.maxValue(MAX_LAST_N, (issue) => `last_n must be at most ${MAX_LAST_N}, received ${issue.input}`), v.description(`At most this many, the most recent. Default ${DEFAULT_LAST_N}.`))),
  }),
  async run(args, { caller, services }) {
    if ((args.child_id === undefined) === (args.name === undefined)) throw new ToolError('give exactly one of child_id (a shell pane) or name (a shell\'s name, also of one that has exited)');
    let name: string;
    let session: ShellSession | undefined;
    let childId: string | null = null;
    if (args.child_id !== undefined) {
      ({ session } = shellTarget(services, caller, args.child_id));
      name = session.name;
      childId = session.paneId;
    } else {
      name = args.name!;
      session = services.shells.liveByName(name);
      if (session) ({ session } = shellTarget(services, caller, session.paneId));
      else if (caller.role !== 'orchestrator') throw new ToolError(`name ${JSON.stringify(name)}: a sub-agent can read the ledgers of the shells it runs; ask your orchestrator for others`);
      else if (!(await services.shells.hasLedger(name))) {
        const names = await services.shells.names();
        throw new ToolError(`name ${JSON.stringify(name)}: no shell of that name has a ledger in this project${names.length === 0 ? '' : `; the shells with ledgers are ${names.join(', ')}`}`);
      }
      childId = session?.paneId ?? null;
    }
    const all = await services.shells.history(name, HISTORY_OUTPUT_CAP, session);
    const after = args.since_seq === undefined ? all : all.filter((record) => (record.seq ?? 0) > args.since_seq!);
    const commands = after.slice(Math.max(0, after.length - (args.last_n ?? DEFAULT_LAST_N)));
    const result = { name, ...(childId !== null ? { child_id: childId } : {}), live: session !== undefined && !session.exited, total: all.length, commands };
    const lines = commands.map((record) => `${record.seq}  ${record.writer}  ${describeOutcome(record)}`);
    const headline = commands.length === 0 ? `${name}: no commands${args.since_seq !== undefined ? ` after seq ${args.since_seq}` : ''}.` : `${name}: ${commands.length} of ${all.length} commands:`;
    return ok(result, headline, lines.length === 0 ? undefined : lines.join('\n'));
  },
});
