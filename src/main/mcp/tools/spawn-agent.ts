import * as v from 'valibot';
import { PROGRESS_INTERVAL_MS } from '../services/progress-keepalive.js';
import { defineTool, fail, ok, ToolError } from './tool-kit.js';
import { ChildSizeFields, messageSchema, NotifyOnExitSchema, ownSizeOf, PaneNameSchema, sizeResult, WorktreeFields } from './schemas.js';
import { paneNameBase } from '../../../shared/pane-name.js';
import { startChild } from './worktree-spawn.js';

export const spawnAgent = defineTool({
  name: 'spawn_agent',
  title: 'Spawn a sub-agent',
  access: 'orchestrator',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    'Launch another agent CLI (an agent preset such as "claude", "codex" or "opencode") in a new terminal pane as your child.',
    'patterm waits until the agent is ready, types initial_prompt into its input box and confirms that it was submitted.',
    'patterm adds nothing to your prompt: say in initial_prompt what the agent should do, that it is a sub-agent, that it can answer you with the report_to_parent tool, and that messages from you arrive prefixed with "[orchestrator]".',
    'Returns child_id. Follow its progress with wait_for_pattern or read_output (mode "grid"); talk to it with send_message_to.',
    'Sub-agents cannot spawn agents (two-level tree).',
    'With worktree, the agent works in a git worktree of its own on branch patterm/<name>, so parallel agents never edit the same checkout.',
    `An agent CLI can take a minute to start; meanwhile MCP progress notifications go out every ${PROGRESS_INTERVAL_MS / 1000} s to a client that asked for them.`,
  ].join(' '),
  schema: v.strictObject({
    preset: v.pipe(v.string(), v.minLength(1, 'preset is empty'), v.maxLength(200), v.description('Name of an agent preset, e.g. "claude".')),
    initial_prompt: messageSchema("The agent's first turn, typed into its input box and submitted."),
    name: v.optional(PaneNameSchema),
    notify_on_exit: NotifyOnExitSchema,
    ...ChildSizeFields,
    ...WorktreeFields,
  }),
  async run(args, context) {
    const { caller, services, progress } = context;
    const ownSize = ownSizeOf(args);
    const what = `spawn agent preset ${JSON.stringify(args.preset)}`;
    const { started: spawned, worktree } = await startChild(context, args, { kind: 'agent', preset: args.preset, nameBase: paneNameBase(args.preset) }, what, async (worktree) => {
      const starting = services.launcher.spawnAgent({
        preset: args.preset,
        initialPrompt: args.initial_prompt,
        name: worktree?.childName ?? args.name,
        parentId: caller.paneId,
        owner: 'orchestrator',
        ownSize,
        workingDir: worktree?.cwd,
        env: worktree?.env,
        notifyOnExit: args.notify_on_exit,
      });
      return progress.during(starting, (elapsedMs) => `starting ${args.preset} and typing its first prompt: ${Math.round(elapsedMs / 1000)} s`);
    });
    const { pane, submit } = spawned;
    await worktree?.attach(pane);
    services.children.record(pane, caller.paneId, { notifyOnExit: args.notify_on_exit });
    const result = {
      child_id: pane.id,
      name: pane.name,
      preset: args.preset,
      ...sizeResult(services.coordinator.paneSize, ownSize),
      prompt_submitted: submit?.submitted ?? false,
      submit_attempts: submit?.attempts ?? 0,
      submit_detail: submit?.detail ?? '',
      ...(worktree ? { worktree: worktree.result } : {}),
    };
    const where = worktree?.headline ?? '';
    if (!submit?.submitted) {
      return fail(
        `spawned ${pane.name} (child_id ${pane.id})${where}, but could not confirm that initial_prompt was submitted: ${submit?.detail ?? 'no submission was attempted'}. Check its screen with read_output and resend with send_input or send_message_to.`,
        result,
      );
    }
    return ok(result, `spawned ${pane.name} (child_id ${pane.id})${where}; initial_prompt submitted (${result.submit_attempts} attempt${result.submit_attempts === 1 ? '' : 's'}).`);
  },
});
