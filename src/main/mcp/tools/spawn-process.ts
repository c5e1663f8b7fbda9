import * as v from 'valibot';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { compilePattern, PatternError } from '../../../shared/pattern.js';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { ChildSizeFields, EnvSchema, MAX_ARG_CHARS, NotifyOnExitSchema, ownSizeOf, PaneNameSchema, RegexSchema, sizeResult, WorktreeFields } from './schemas.js';
import { paneNameBase } from '../../../shared/pane-name.js';
import { startChild } from './worktree-spawn.js';
import { ignoreError } from '../../../node/patterm-log.js';

/** A dev server that is not ready in ten minutes is not going to be; the caller can still poll afterwards. */
const MAX_READY_TIMEOUT_SECONDS = 600;
/** Bounds a single argv so a runaway caller cannot hand the kernel megabytes of arguments. */
const MAX_ARGV_ITEMS = 1000;

export const spawnProcess = defineTool({
  name: 'spawn_process',
  title: 'Run a process in a new pane',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    'Start a program in a new terminal pane as your child: a dev server, a test watcher, a REPL, a build.',
    'Give either preset (a process preset such as "dev") or argv (e.g. ["npm", "run", "dev"]); with shell: true, argv[0] is a shell command line run by sh -lc (pipes, redirections).',
    'Returns child_id at once; the process keeps running. Read its output with read_output (mode "stream" for logs, "grid" for full-screen programs), type into it with send_input, stop it with kill.',
    'ready_pattern / error_pattern are regexes matched against each output line; list_children reports which matched first. With ready_timeout_seconds, this call waits until one of them matches (or the process exits, or the time runs out) and returns which.',
    'With worktree, it runs in a git worktree of its own on branch patterm/<name> (working_dir is then relative to the worktree).',
  ].join(' '),
  schema: v.strictObject({
    preset: v.optional(v.pipe(v.string(), v.minLength(1, 'preset is empty'), v.maxLength(200), v.description('Name of a process preset. Give this or argv.'))),
    argv: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.maxLength(MAX_ARG_CHARS))),
        v.minLength(1, 'argv is empty; it must name a program, e.g. ["npm", "test"]'),
        v.maxLength(MAX_ARGV_ITEMS),
        v.description('Program and arguments, e.g. ["npm", "run", "dev"]. Give this or preset.'),
      ),
    ),
    shell: v.optional(v.pipe(v.boolean(), v.description('Run argv[0] as a shell command line (sh -lc). Default false.')), false),
    working_dir: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description('Directory to run in; relative paths are resolved against the project directory (with worktree: the worktree). Default: the project directory.'))),
    env: v.optional(EnvSchema),
    name: v.optional(PaneNameSchema),
    notify_on_exit: NotifyOnExitSchema,
    ...ChildSizeFields,
    ready_pattern: v.optional(RegexSchema('Regex for a line that means the process is ready, e.g. "listening on|ready in".')),
    error_pattern: v.optional(RegexSchema('Regex for a line that means the process failed to start, e.g. "EADDRINUSE|Error:".')),
    ready_timeout_seconds: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0, (issue) => `ready_timeout_seconds must be 0 or more, received ${issue.input}`),
        v.maxValue(MAX_READY_TIMEOUT_SECONDS),
        v.description('Wait up to this long for ready_pattern or error_pattern to match before returning.'),
      ),
    ),
    ...WorktreeFields,
  }),
  async run(args, context) {
    const { caller, services } = context;
    if ((args.preset === undefined) === (args.argv === undefined)) {
      throw new ToolError('give exactly one of preset (a process preset name) or argv (a program and its arguments)');
    }
    if (args.preset !== undefined && args.shell) throw new ToolError('shell applies to argv only; a preset says for itself whether it runs in a shell');
    if (args.ready_timeout_seconds !== undefined && !args.ready_pattern && !args.error_pattern) {
      throw new ToolError('ready_timeout_seconds needs ready_pattern or error_pattern to wait for');
    }
    const ownSize = ownSizeOf(args);
    const ready = compileNamed('ready_pattern', args.ready_pattern);
    const error = compileNamed('error_pattern', args.error_pattern);
    const withWorktree = args.worktree !== undefined && args.worktree !== false;
    if (args.working_dir !== undefined && !withWorktree) await assertDirectory(resolve(services.coordinator.projectDir, args.working_dir), args.working_dir);
    const what = `start ${args.preset !== undefined ? `process preset ${JSON.stringify(args.preset)}` : `argv ${JSON.stringify(args.argv)}`}`;
    const child = { kind: 'process', preset: args.preset ?? null, nameBase: paneNameBase(args.preset ?? '', basename(args.argv?.[0] ?? ''), 'process') };
    const { started: pane, worktree } = await startChild(context, args, child, what, async (worktree) => {
      let workingDir = args.working_dir;
      if (worktree) {
        workingDir = resolve(worktree.cwd, args.working_dir ?? '.');
        await assertDirectory(workingDir, args.working_dir ?? '.').catch((problem: Error) => {
          throw new ToolError(`${problem.message} in the worktree.${worktree.keptNote}`);
        });
      }
      return services.launcher.spawnProcess({
        preset: args.preset,
        argv: args.argv,
        shell: args.shell,
        workingDir,
        env: worktree ? { ...worktree.env, ...args.env } : args.env,
        name: worktree?.childName ?? args.name,
        parentId: caller.paneId,
        owner: 'orchestrator',
        ownSize,
        notifyOnExit: args.notify_on_exit,
      });
    });
    await worktree?.attach(pane);
    const record = services.children.record(pane, caller.paneId, { notifyOnExit: args.notify_on_exit, readyPattern: ready, errorPattern: error });
    const result: Record<string, unknown> = {
      child_id: pane.id,
      name: pane.name,
      pid: pane.process.pid,
      argv: pane.argv,
      cwd: pane.cwd,
      ...sizeResult(services.coordinator.paneSize, ownSize),
      ...(worktree ? { worktree: worktree.result } : {}),
    };
    const where = worktree?.headline ?? '';
    if (record.watch && args.ready_timeout_seconds !== undefined) {
      const health = await record.watch.settled(args.ready_timeout_seconds * 1000);
      const now = services.coordinator.info(pane.id).process;
      Object.assign(result, { first_match: health.first, ready: health.ready, error: health.error, status: now.status });
      if (health.patternProblem !== undefined) result.pattern_problem = `ready_pattern/error_pattern: ${health.patternProblem}`;
      const outcome =
        health.first === 'ready'
          ? `ready: ${health.ready!.line}`
          : health.first === 'error'
            ? `ERROR pattern matched: ${health.error!.line}`
            : health.patternProblem !== undefined
              ? `the output is no longer watched: ready_pattern/error_pattern: ${health.patternProblem}`
              : now.status !== 'running'
                ? 'it exited before either pattern matched'
                : `neither pattern matched within ${args.ready_timeout_seconds} s`;
      return ok(result, `started ${pane.name} (child_id ${pane.id})${where}; ${outcome}`);
    }
    return ok(result, `started ${pane.name} (child_id ${pane.id}, pid ${pane.process.pid})${where}.`);
  },
});

function compileNamed(field: string, pattern: string | undefined): RegExp | null {
  if (pattern === undefined) return null;
  try {
    return compilePattern(pattern);
  } catch (error) {
    if (error instanceof PatternError) throw new ToolError(`${field}: ${error.message}`);
    throw error;
  }
}

async function assertDirectory(path: string, given: string): Promise<void> {
  const info = await stat(path).catch(ignoreError(`checking working_dir ${path}`, null));
  if (!info) throw new ToolError(`working_dir ${JSON.stringify(given)} does not exist (resolved to ${path})`);
  if (!info.isDirectory()) throw new ToolError(`working_dir ${JSON.stringify(given)} is not a directory (resolved to ${path})`);
}
