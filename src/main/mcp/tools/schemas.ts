/**
 * Schema pieces shared by several tools, so the same field means the same
 * thing (and is validated the same way) everywhere.
 */
import * as v from 'valibot';
import { PANE_NAME_PATTERN, PANE_NAME_RULE } from '../../../shared/pane-name.js';
import type { PaneSize } from '../../../shared/pane-types.js';
import { ToolError } from './tool-kit.js';

/**
 * Longest single wait (wait_for_pattern, wait_for_state). Vendor CLIs time out
 * MCP calls on their own schedule; half an hour is past any sensible single
 * wait, and the caller can loop.
 */
export const MAX_WAIT_SECONDS = 1800;

/** Pane ids are short hex strings; anything long is a mistake, not an id. */
const MAX_CHILD_ID_LENGTH = 64;
/**
 * Text typed into another agent's input box. 100k characters is far beyond a
 * sensible prompt; bulk material belongs in a scratchpad.
 */
export const MAX_MESSAGE_CHARS = 100_000;

export const ChildIdSchema = v.pipe(
  v.string(),
  v.minLength(1, 'child_id is empty; use an id from list_children or from the spawn result'),
  v.maxLength(MAX_CHILD_ID_LENGTH),
  v.description('The child_id returned by spawn_agent / spawn_process, or shown by list_children.'),
);

export function messageSchema(description: string) {
  return v.pipe(v.string(), v.minLength(1, 'the message is empty'), v.maxLength(MAX_MESSAGE_CHARS), v.description(description));
}

/** Display names end up in tags like `[sub-agent:<name>]`, so they stay simple (src/shared/pane-name.ts). */
export const PaneNameSchema = v.pipe(
  v.string(),
  v.regex(PANE_NAME_PATTERN, (issue) => `name ${JSON.stringify(issue.input)} must be ${PANE_NAME_RULE}`),
  v.description('Display name shown in the session tree and in message tags. Defaults to "<preset>-<n>", with other characters of the preset name turned into "-" (preset "npm run dev" gives "npm-run-dev-1").'),
);

/**
 * Byte offsets and screen versions only ever count up from 0; past 2^53 - 1 a
 * number is no longer an exact integer (1e300 passes an integer check).
 */
export const MAX_COUNTER = Number.MAX_SAFE_INTEGER;

/** A byte offset or a version, named in its errors with the value received. */
export function counterSchema(field: string, description: string) {
  return v.pipe(
    v.number(),
    v.integer((issue) => `${field} must be a whole number, received ${issue.input}`),
    v.minValue(0, (issue) => `${field} must be 0 or more, received ${issue.input}`),
    v.maxValue(MAX_COUNTER, (issue) => `${field} must be at most ${MAX_COUNTER} (2^53 - 1), received ${issue.input}`),
    v.description(description),
  );
}

export const RegexSchema = (description: string) =>
  v.pipe(v.string(), v.minLength(1, 'the pattern is empty'), v.maxLength(4096), v.description(description));

export const NotifyOnExitSchema = v.optional(
  v.pipe(
    v.boolean(),
    v.description('When true (the default), "[system] <name> exited with code N" is typed into your input when this child exits on its own. Not sent for children you kill yourself.'),
  ),
  true,
);

/** A child's own size: room for a prompt line and a status row at least; at most what a caller may make patterm hold per pane. */
const CHILD_COLS = { min: 10, max: 500 };
const CHILD_ROWS = { min: 3, max: 200 };

function sizeField(field: 'cols' | 'rows', { min, max }: { min: number; max: number }, description: string) {
  const rule = (issue: { input: unknown }) => `${field} must be a whole number from ${min} to ${max}, received ${JSON.stringify(issue.input)}`;
  return v.optional(v.pipe(v.number(rule), v.integer(rule), v.minValue(min, rule), v.maxValue(max, rule), v.description(description)));
}

/** `cols` and `rows` of spawn_process and spawn_agent: a child's own terminal size. */
export const ChildSizeFields = {
  cols: sizeField('cols', CHILD_COLS, `Columns of the child's own terminal (${CHILD_COLS.min}-${CHILD_COLS.max}); give rows too. The child keeps this size when patterm is resized (the TUI shows it clipped or letterboxed). Default: the size of patterm's main pane, followed as it changes.`),
  rows: sizeField('rows', CHILD_ROWS, `Rows of the child's own terminal (${CHILD_ROWS.min}-${CHILD_ROWS.max}); give cols too.`),
};

/** The own size the arguments ask for, if any; cols and rows come together. */
export function ownSizeOf(args: { cols?: number; rows?: number }): PaneSize | undefined {
  if (args.cols === undefined && args.rows === undefined) return undefined;
  if (args.cols === undefined || args.rows === undefined) {
    throw new ToolError(`give cols and rows together for a child of its own size (received only ${args.cols === undefined ? `rows ${args.rows}` : `cols ${args.cols}`})`);
  }
  return { cols: args.cols, rows: args.rows };
}

/** The size a spawn result reports: the child's own, or the shared size it follows. */
export function sizeResult(shared: PaneSize, ownSize: PaneSize | undefined): { cols: number; rows: number; own_size: boolean } {
  return { ...(ownSize ?? shared), own_size: ownSize !== undefined };
}

/** `worktree` and `base` of spawn_agent, spawn_process and spawn_shell: a child in a git worktree of its own. */
export const WorktreeFields = {
  worktree: v.optional(
    v.pipe(
      v.union([v.boolean(), v.pipe(v.string(), v.minLength(1, 'worktree is empty; give a name, or true'), v.maxLength(200))], (issue) => `worktree must be true or a name, received ${JSON.stringify(issue.input)}`),
      v.description(
        'Start the child in a git worktree of its own, on a new branch patterm/<name>, outside the project checkout: true names it after the child, a string names it (made plain for git: "fix login/bug" becomes "fix-login-bug"). A name already in use is an error. Its change shows in worktree_diff; worktree_remove removes it safely.',
      ),
    ),
  ),
  base: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1, 'base is empty'),
      v.maxLength(256),
      v.description('With worktree: the branch, tag or commit the new branch starts at. Default: what the project checkout has checked out (its HEAD).'),
    ),
  ),
};

/**
 * Default bytes per stream read (read_output) or diff read (worktree_diff): ~16k tokens of
 * text, a sensible bite for a model's context. The caller pages on, or asks for up to the cap.
 */
export const DEFAULT_STREAM_BYTES = 64 * 1024;
export const MAX_STREAM_BYTES = 1024 * 1024;

/** The name of one of patterm's worktrees, as worktree_list shows it. */
export const WorktreeNameSchema = v.pipe(
  v.string(),
  v.minLength(1, 'name is empty; use a name from worktree_list'),
  v.maxLength(200),
  v.description('The worktree\'s name, as worktree_list and the spawn result show it (its branch is patterm/<name>).'),
);
/** Bounds one environment value or argument, so a runaway caller cannot hand the kernel megabytes. */
export const MAX_ARG_CHARS = 100_000;

/** `working_dir` of the tools that start a program in a new pane. */
export const WorkingDirSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(4096),
  v.description('Directory to run in; relative paths are resolved against the project directory. Default: the project directory.'),
);

/** `env` of the tools that start a program in a new pane. */
export const EnvSchema = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, (issue) => `environment variable name ${JSON.stringify(issue.input)} is not valid`)),
    v.pipe(v.string(), v.maxLength(MAX_ARG_CHARS)),
  ),
  v.description('Extra environment variables, merged over the inherited environment.'),
);

/** A wait of the shell tools: more than nothing, at most the longest wait any tool allows. */
export function waitSecondsSchema(field: string, description: string) {
  return v.pipe(
    v.number((issue) => `${field} must be a number of seconds, received ${JSON.stringify(issue.input)}`),
    v.gtValue(0, (issue) => `${field} must be more than 0, received ${issue.input}`),
    v.maxValue(MAX_WAIT_SECONDS, (issue) => `${field} must be at most ${MAX_WAIT_SECONDS}, received ${issue.input}; wait again with wait_for_command if you need longer`),
    v.description(description),
  );
}
