import * as v from 'valibot';
import { defineTool, ToolError } from './tool-kit.js';
import { ChildIdSchema, waitSecondsSchema } from './schemas.js';
import { shellTarget } from '../services/shell-target.js';
import { RECORD_OUTPUT_CAP } from '../../shells/index.js';
import { recordResult } from './shell-record-result.js';

export const waitForCommand = defineTool({
  name: 'wait_for_command',
  title: 'Wait for a command in a shell pane',
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    'Wait for a command in a shell pane to end, by its seq (from run_command, also when it timed out, or from command_history), and return its record as run_command does.',
    'A command that already ended returns at once. If it is still running after timeout_seconds, the record comes back with timed_out: true and status "running".',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    seq: v.pipe(
      v.number((issue) => `seq must be a command number, received ${JSON.stringify(issue.input)}`),
      v.integer((issue) => `seq must be a whole number, received ${issue.input}`),
      v.minValue(1, (issue) => `seq must be 1 or more, received ${issue.input}`),
      v.maxValue(Number.MAX_SAFE_INTEGER),
      v.description('The command\'s seq.'),
    ),
    timeout_seconds: waitSecondsSchema('timeout_seconds', 'Give up after this many seconds (the command goes on).'),
  }),
  async run(args, { caller, services, signal, progress }) {
    const { pane, session } = shellTarget(services, caller, args.child_id);
    const running = session.runningCommand(args.seq);
    if (running) {
      const deadline = performance.now() + args.timeout_seconds * 1000;
      const outcome = await progress.during(session.outcome(running, deadline, signal), (elapsedMs) => `waiting for ${pane.name} seq ${args.seq}: ${Math.round(elapsedMs / 1000)} s of ${args.timeout_seconds} s`, args.timeout_seconds * 1000);
      return recordResult(pane.name, pane.id, outcome.record, args.timeout_seconds);
    }
    const records = await services.shells.history(session.name, RECORD_OUTPUT_CAP, session);
    const record = records.find((entry) => entry.seq === args.seq);
    if (!record) {
      const seqs = records.map((entry) => entry.seq).filter((seq): seq is number => seq !== null);
      const known = seqs.length === 0 ? 'it has no commands yet' : `its commands are ${seqs[0]} to ${seqs[seqs.length - 1]}`;
      throw new ToolError(`seq ${args.seq}: no such command in ${session.name}'s ledger; ${known}`);
    }
    return recordResult(pane.name, pane.id, record, args.timeout_seconds);
  },
});
