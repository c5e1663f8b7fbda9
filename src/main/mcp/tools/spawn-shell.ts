import * as v from 'valibot';
import { basename, resolve } from 'node:path';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { ChildSizeFields, EnvSchema, NotifyOnExitSchema, ownSizeOf, PaneNameSchema, sizeResult, WorkingDirSchema, WorktreeFields } from './schemas.js';
import { startChild } from './worktree-spawn.js';
import { INTEGRATION_WAIT_MS, ShellNameError } from '../../shells/index.js';
import { UnknownPresetError } from '../../presets/agent-launcher.js';

export const spawnShell = defineTool({
  name: 'spawn_shell',
  title: 'Start a shell pane',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    'Start an interactive shell in a new pane as your child: a persistent shell whose directory, exports and virtualenvs carry over from one command to the next. The human can type in it too.',
    'Run commands in it with run_command, which returns each command\'s exit code, output and working directory. Every command (yours, other agents\', the human\'s) goes in the shell\'s ledger: read it with command_history; subscribe_commands tells you when a command ends there.',
    'shell: bash or zsh get patterm\'s shell integration (integration "full": the shell marks each command\'s start and end itself), loading your own start-up files as usual. Any other shell (fish, sh), or shell_integration: false, gets integration "fallback": run_command wraps each command with marks of its own.',
    'The ledger belongs to the name: a shell started again under a name used before continues its ledger.',
    'With worktree, the shell starts in a git worktree of its own on branch patterm/<name> (working_dir is then relative to the worktree).',
  ].join(' '),
  schema: v.strictObject({
    preset: v.optional(v.pipe(v.string(), v.minLength(1, 'preset is empty'), v.maxLength(200), v.description('A shell preset (such as "zsh shell"): its shell, directory, environment and integration are the defaults of the arguments below.'))),
    name: v.optional(PaneNameSchema),
    shell: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1, 'shell is empty; give a shell such as "bash" or "zsh"'),
        v.maxLength(4096),
        v.check((shell) => !shell.includes('\0'), 'shell must not contain a NUL character'),
        v.description('The shell: "bash" or "zsh" (full integration), or another (fish, sh; fallback). A name on PATH or a path. Default: your $SHELL when it is bash or zsh, else bash.'),
      ),
    ),
    working_dir: v.optional(WorkingDirSchema),
    env: v.optional(EnvSchema),
    shell_integration: v.optional(v.pipe(v.boolean(), v.description('false starts a plain shell, without patterm\'s marks (integration "fallback"). Default true, or the preset\'s.'))),
    notify_on_exit: NotifyOnExitSchema,
    ...ChildSizeFields,
    ...WorktreeFields,
  }),
  async run(args, context) {
    const { caller, services, progress } = context;
    const ownSize = ownSizeOf(args);
    const what = `start ${args.shell !== undefined ? `shell ${JSON.stringify(args.shell)}` : args.preset !== undefined ? `shell preset ${JSON.stringify(args.preset)}` : 'a shell'}`;
    const child = { kind: 'shell', preset: args.preset ?? null, nameBase: args.shell ? basename(args.shell) : 'shell' };
    const { started: spawned, worktree } = await startChild(context, args, child, what, async (worktree) => {
      try {
        return await services.shells.spawn({
          preset: args.preset,
          name: worktree?.childName ?? args.name,
          shell: args.shell,
          workingDir: worktree ? resolve(worktree.cwd, args.working_dir ?? '.') : args.working_dir,
          env: worktree ? { ...args.env, ...worktree.env } : args.env,
          integration: args.shell_integration,
          parentId: caller.paneId,
          owner: 'orchestrator',
          ownSize,
        });
      } catch (cause) {
        if (cause instanceof ShellNameError || cause instanceof UnknownPresetError) throw new ToolError(cause.message + (worktree?.keptNote ?? ''));
        throw cause;
      }
    });
    const { pane, session } = spawned;
    await worktree?.attach(pane);
    services.children.record(pane, caller.paneId, { notifyOnExit: args.notify_on_exit });
    const integration = await progress.during(session.integrationSettled(INTEGRATION_WAIT_MS), (elapsedMs) => `waiting for ${pane.name}'s first prompt: ${Math.round(elapsedMs / 1000)} s`);
    const result = {
      child_id: pane.id,
      name: pane.name,
      pid: pane.process.pid,
      shell: pane.argv[0],
      argv: pane.argv,
      cwd: pane.cwd,
      integration: integration === 'pending' ? 'fallback' : integration,
      ledger: session.ledger.file,
      next_seq: session.ledger.nextSeq,
      ...sizeResult(services.coordinator.paneSize, ownSize),
      ...(worktree ? { worktree: worktree.result } : {}),
    };
    const how = result.integration === 'full' ? 'integration full: the shell marks its commands' : session.exited ? 'it exited at once' : 'integration fallback: run_command wraps each command with marks of its own';
    return ok(result, `started shell ${pane.name} (child_id ${pane.id}${worktree?.headline ?? ''}, ${how}).`);
  },
});
