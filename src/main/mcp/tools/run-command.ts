import * as v from 'valibot';
import { defineTool, ToolError } from './tool-kit.js';
import { ChildIdSchema, waitSecondsSchema } from './schemas.js';
import { agentWriter, shellTarget } from '../services/shell-target.js';
import { ShellBusyError } from '../../shells/index.js';
import { describeExit } from '../../agents/exit-description.js';
import { recordResult } from './shell-record-result.js';

/** A command line longer than this is a script: write it to a file and run that. */
const MAX_COMMAND_CHARS = 100_000;
const DEFAULT_TIMEOUT_SECONDS = 120;

export const runCommand = defineTool({
  name: 'run_command',
  title: 'Run a command in a shell pane',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: true },
  description: [
    'Type a command into a shell pane (from spawn_shell) and wait for it to end. Returns its record: seq, command, writer, started_at, finished_at, duration_ms, exit_code, output (the text it printed, without colours; long output keeps its head and tail, truncated_bytes says how much is not shown, output_file holds all of it), cwd after it, and timed_out.',
    'The shell persists: cd, export and activated virtualenvs carry over to the next command. A command of several lines goes in as one paste, and its record covers all of them.',
    `If it has not ended after timeout_seconds (default ${DEFAULT_TIMEOUT_SECONDS}), the call returns with timed_out: true and the command keeps running; wait_for_command picks it up. Interrupt it with send_input kind "key", key "ctrl-c" (exit code 130).`,
    'While another command runs in the shell, or while someone is typing at its prompt, the call fails with busy and types nothing.',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    command: v.pipe(
      v.string(),
      v.maxLength(MAX_COMMAND_CHARS, (issue) => `command is ${(issue.input as string).length} characters, more than ${MAX_COMMAND_CHARS}; write it to a file and run that`),
      v.check((command) => !command.includes('\0'), 'command must not contain a NUL character (received one); a terminal cannot type it'),
      v.description('The command line, as you would type it at the prompt. Several lines are fine.'),
    ),
    timeout_seconds: v.optional(waitSecondsSchema('timeout_seconds', `Return after this many seconds if the command is still running (it goes on). Default ${DEFAULT_TIMEOUT_SECONDS}.`), DEFAULT_TIMEOUT_SECONDS),
  }),
  async run(args, { caller, services, signal, progress }) {
    const { pane, session } = shellTarget(services, caller, args.child_id);
    if (pane.process.status !== 'running') throw new ToolError(`${pane.name} (child_id ${pane.id}) has exited with ${describeExit(pane.process)}; it takes no commands. Its ledger is still readable with command_history`);
    const deadline = performance.now() + args.timeout_seconds * 1000;
    let outcome;
    try {
      outcome = await progress.during(session.run(args.command, agentWriter(services.coordinator, caller), deadline, signal), (elapsedMs) => `running in ${pane.name}: ${Math.round(elapsedMs / 1000)} s of ${args.timeout_seconds} s`, args.timeout_seconds * 1000);
    } catch (error) {
      if (error instanceof ShellBusyError) throw new ToolError(`busy: ${error.message}`, { busy: true });
      throw error;
    }
    return recordResult(pane.name, pane.id, outcome.record, args.timeout_seconds);
  },
});
