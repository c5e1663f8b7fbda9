/**
 * The shape of preset files (presets/README.md), as valibot schemas. A preset file is
 * user-edited JSON, so every field is checked here and a problem is reported as
 * "<field>: <problem> (received <value>)" rather than surfacing later as a
 * confusing spawn failure. Pure: no Node APIs (this folder's tsconfig enforces it).
 */
import * as v from 'valibot';
import { compilePattern } from './pattern.js';
import { ConversationSchema } from './conversation-schema.js';

/** Longest wait for a ready signal we accept; longer is almost surely a typo (ms vs s). */
const MAX_TIMEOUT_MS = 10 * 60 * 1000;

const validRegex = (value: string, flags?: string): boolean => {
  try {
    compilePattern(value, flags);
    return true;
  } catch {
    return false;
  }
};

const flagsProblem = (pattern: string, flags: string | undefined) =>
  `is not a valid regular expression with flags ${JSON.stringify(flags ?? '')} (received ${JSON.stringify(pattern)})`;

const Regex = v.pipe(
  v.string(),
  v.nonEmpty('must not be empty'),
  v.check((value: string) => validRegex(value), 'is not a valid regular expression'),
);
const Millis = (max: number) => v.pipe(v.number(), v.integer('must be a whole number of milliseconds'), v.minValue(0), v.maxValue(max));
/** execve takes C strings: a NUL would silently cut the value short. */
const NoNul = v.pipe(v.string(), v.check((value) => !value.includes('\0'), 'must not contain a NUL character'));
const Argv = v.pipe(
  v.array(NoNul),
  v.minLength(1, 'must name a program (received an empty list)'),
  v.check((argv) => argv[0] !== '', 'must not start with an empty program name'),
);
/** NAME=value pairs: a name with "=" would set a different variable (A=B: "x" sets A to "B=x"). */
const Env = v.record(v.pipe(v.string(), v.regex(/^[^=\0]+$/, 'must be a variable name without "=" (and not empty)')), NoNul);
/** Free-text keys users may add to any file without it being a typo. */
const Annotations = { $schema: v.optional(v.string()), description: v.optional(v.string()), comment: v.optional(v.string()) };

// ---- MCP injection: never mutates global vendor config ----

/**
 * The server's name is spliced into a file name, a TOML key and JSON text: a
 * name that is not a plain identifier breaks each of them (or, with "../",
 * puts the config file outside its private directory).
 */
const ServerName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"'),
);

/**
 * patterm writes `{"mcpServers": {<server>: {command, args}}}` to a private temp
 * file and appends `args` to argv with `{config_file}` replaced by its path
 * (Claude Code: `--mcp-config {config_file} --strict-mcp-config`).
 */
const ConfigFileFlagInjection = v.strictObject({
  kind: v.literal('config_file_flag'),
  server_name: v.optional(ServerName),
  args: v.pipe(
    v.array(v.string()),
    v.check((args) => args.some((arg) => arg.includes('{config_file}')), 'must contain "{config_file}" where the config path goes'),
  ),
});

/**
 * Appends `<flag> <prefix>.command="…"` and `<flag> <prefix>.args=[…]` (values as
 * TOML), plus one override per `extra` entry (codex: `-c mcp_servers.patterm.…`).
 */
const TomlOverridesInjection = v.strictObject({
  kind: v.literal('toml_overrides'),
  server_name: v.optional(ServerName),
  flag: v.optional(v.string()),
  /** Dotted key the server table lives under; `{server}` is replaced by server_name. */
  key_prefix: v.optional(v.string()),
  extra: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]))),
});

/**
 * Sets env var `var` to JSON: `template` with the strings "{command}", "{args}"
 * and "{argv}" replaced by the proxy command, its args and both together, deep
 * merged over any JSON already in that variable (opencode: OPENCODE_CONFIG_CONTENT).
 */
const EnvJsonInjection = v.strictObject({
  kind: v.literal('env_json'),
  server_name: v.optional(ServerName),
  var: v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')),
  template: v.record(v.string(), v.unknown()),
});

const NoInjection = v.strictObject({ kind: v.literal('none') });

export const McpInjectionSchema = v.variant('kind', [ConfigFileFlagInjection, TomlOverridesInjection, EnvJsonInjection, NoInjection]);

// ---- ready signal: when an agent waits at its input ----

const IdleReady = v.strictObject({
  kind: v.literal('idle'),
  /** Quiet time that counts as ready; defaults to the preset's idle threshold. */
  idle_ms: v.optional(Millis(MAX_TIMEOUT_MS)),
  timeout_ms: v.optional(Millis(MAX_TIMEOUT_MS)),
});

const PatternReady = v.pipe(v.strictObject({
  kind: v.literal('pattern'),
  /** Shown on screen when the CLI waits for input. */
  pattern: Regex,
  /** JavaScript regex flags for both patterns: i, m, s, u. */
  flags: v.optional(v.pipe(v.string(), v.regex(/^[gimsuy]*$/, 'may only hold the regex flags i, m, s and u (g and y are ignored)'))),
  /** Shown while the CLI works; ready requires it absent (codex keeps its ready text up while busy). */
  busy_pattern: v.optional(Regex),
  /** The screen must also hold still this long, so typing does not race the last paint. */
  stable_ms: v.optional(Millis(MAX_TIMEOUT_MS)),
  timeout_ms: v.optional(Millis(MAX_TIMEOUT_MS)),
}), v.forward(
  // The patterns are checked above without flags; "u" in particular rejects patterns that are valid without it.
  v.check((signal) => validRegex(signal.pattern, signal.flags), (issue) => flagsProblem(issue.input.pattern, issue.input.flags)),
  ['pattern'],
), v.forward(
  v.check((signal) => signal.busy_pattern === undefined || validRegex(signal.busy_pattern, signal.flags), (issue) => flagsProblem(issue.input.busy_pattern ?? '', issue.input.flags)),
  ['busy_pattern'],
));

export const ReadySignalSchema = v.variant('kind', [IdleReady, PatternReady]);

// ---- submission: how typed text is confirmed (spawn_agent, send_message_to) ----

export const SubmitOptionsSchema = v.strictObject({
  /** Quiet time after the text lands before Enter (codex reads a fast Enter as part of a paste). */
  enter_delay_ms: v.optional(Millis(60_000)),
  /** How long to wait for proof of submission before the one Enter retry. */
  confirm_timeout_ms: v.optional(Millis(MAX_TIMEOUT_MS)),
  /** "auto": bracketed paste for multi-line text or when the CLI enabled paste mode. */
  paste: v.optional(v.picklist(['auto', 'always', 'never'])),
});

// ---- chrome trimming for grid reads (read_output's trim_chrome) ----

const BlockTrim = v.strictObject({
  kind: v.literal('block'),
  /** From the first row matching start through the next row matching end (both dropped). */
  start: Regex,
  end: Regex,
});
const FromLastTrim = v.strictObject({
  kind: v.literal('from_last'),
  /** The last row matching pattern (an input box row, say) through the bottom of the screen. */
  pattern: Regex,
  /** Only when the next non-blank row matches this too (tells the input box from a transcript line). */
  followed_by: v.optional(Regex),
  /** Also drop this many rows above the match … */
  above: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20))),
  /** … or every contiguous row above it that matches this. */
  above_while: v.optional(Regex),
  /** Only when the match is within this many rows of the bottom (default: anywhere). */
  within_bottom: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});
const MatchTrim = v.strictObject({
  kind: v.literal('match'),
  /** Every row matching pattern. */
  pattern: Regex,
});
const RowsTrim = v.strictObject({
  kind: v.literal('rows'),
  /** Row range, inclusive; negative counts from the bottom (-1 is the last row). */
  from: v.pipe(v.number(), v.integer()),
  to: v.pipe(v.number(), v.integer()),
});

export const ChromeTrimRuleSchema = v.variant('kind', [BlockTrim, FromLastTrim, MatchTrim, RowsTrim]);

// ---- dialogs: where an agent asks for approval or an answer ----

/** A dialog is drawn near the bottom of the screen; more rows than a screen holds is a typo. */
const MAX_REGION_ROWS = 500;
/** Keys are a few bytes (Enter, Esc, arrows then Enter); anything long is not a key press. */
const MAX_KEY_BYTES = 64;

const KeyBytes = v.pipe(v.string(), v.nonEmpty('must not be empty (give the bytes to send, e.g. "\\r")'), v.maxLength(MAX_KEY_BYTES, `must be at most ${MAX_KEY_BYTES} characters`));

/**
 * Where on the screen the dialog is looked for, so that the same words printed
 * elsewhere (a file that contains "Allow?") do not count.
 */
export const DialogRegionSchema = v.pipe(
  v.strictObject({
    /** The last N rows of the screen. */
    bottom_rows: v.optional(v.pipe(v.number(), v.integer('must be a whole number of rows'), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_REGION_ROWS, `must be at most ${MAX_REGION_ROWS}`))),
    /** The rows below the last row matching this regex (the input box's rule line, say). */
    below: v.optional(Regex),
  }),
  v.check((region) => (region.bottom_rows === undefined) !== (region.below === undefined), 'must give exactly one of bottom_rows (a number of rows) and below (the regex of a rule line)'),
);

export const DialogSchema = v.pipe(v.strictObject({
  /** "permission": a tool approval; "question": the program asks something else. */
  kind: v.picklist(['permission', 'question']),
  /** Checked below with its flags, so a bad pattern is reported once. */
  pattern: v.pipe(v.string(), v.nonEmpty('must not be empty')),
  flags: v.optional(v.pipe(v.string(), v.regex(/^[imsu]*$/, 'may only hold the regex flags i, m, s and u'))),
  region: DialogRegionSchema,
  /** The bytes that answer it; send_input's `answer` sends these. */
  keys: v.optional(v.strictObject({ approve_once: v.optional(KeyBytes), approve_always: v.optional(KeyBytes), deny: v.optional(KeyBytes) })),
}), v.forward(
  v.check((dialog) => validRegex(dialog.pattern, dialog.flags), (issue) => flagsProblem(issue.input.pattern, issue.input.flags)),
  ['pattern'],
));

// ---- the two preset kinds: agents (wired to patterm's MCP server) and processes ----

/**
 * Free text shown in the palette ("codex haiku"), and the name of panes the
 * palette starts: a newline or escape in it would be typed into agents inside
 * `[sub-agent:<name>]` tags. Spawn defaults make a plain name of it (pane-name.ts).
 */
const Name = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('must not be empty'),
  v.maxLength(80, 'must be at most 80 characters'),
  // eslint-disable-next-line no-control-regex
  v.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, (issue) => `must not contain control characters such as newlines, tabs or escapes (received ${visible(issue.input)})`),
);

/** JSON quoting, plus the C1 controls JSON leaves raw: the problem is printed to a terminal. */
function visible(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const AgentPresetSchema = v.strictObject({
  ...Annotations,
  name: Name,
  argv: Argv,
  env: v.optional(Env),
  working_dir: v.optional(v.string()),
  mcp_injection: v.optional(McpInjectionSchema),
  ready_signal: v.optional(ReadySignalSchema),
  /** Quiet time after which the pane counts as idle, default 1000. */
  idle_threshold_ms: v.optional(Millis(MAX_TIMEOUT_MS)),
  submit: v.optional(SubmitOptionsSchema),
  chrome_trim_hints: v.optional(v.array(ChromeTrimRuleSchema)),
  /** The CLI's approval dialogs and questions, strongest evidence of its state. */
  dialogs: v.optional(v.array(DialogSchema)),
  /** How to learn the pane's conversation id and resume it (conversation-schema.ts). */
  conversation: v.optional(ConversationSchema),
});

export const ProcessPresetSchema = v.strictObject({
  ...Annotations,
  name: Name,
  argv: Argv,
  /** argv[0] is a command line for `sh -lc` (pipes, redirections). */
  shell: v.optional(v.boolean()),
  env: v.optional(Env),
  working_dir: v.optional(v.string()),
});

/**
 * A shell pane (src/main/shells/): bash or zsh with patterm's integration, so
 * each command's exit code and output are known, or, with
 * `shell_integration: false` or another shell, a plain one.
 */
export const ShellPresetSchema = v.strictObject({
  ...Annotations,
  name: Name,
  /** The shell program: a name on PATH or a path. */
  shell: v.pipe(NoNul, v.nonEmpty('must name a shell, e.g. "bash" or "zsh"')),
  env: v.optional(Env),
  working_dir: v.optional(v.string()),
  /** patterm's marks (bash and zsh); default true. */
  shell_integration: v.optional(v.boolean()),
  /** A login shell (it reads the profile files); default true. */
  login: v.optional(v.boolean()),
});

export type AgentPreset = v.InferOutput<typeof AgentPresetSchema>;
export type ShellPreset = v.InferOutput<typeof ShellPresetSchema>;
export type ProcessPreset = v.InferOutput<typeof ProcessPresetSchema>;
export type McpInjection = v.InferOutput<typeof McpInjectionSchema>;
export type ReadySignal = v.InferOutput<typeof ReadySignalSchema>;
export type SubmitOptions = v.InferOutput<typeof SubmitOptionsSchema>;
export type ChromeTrimRule = v.InferOutput<typeof ChromeTrimRuleSchema>;
export type Dialog = v.InferOutput<typeof DialogSchema>;
export type DialogRegion = v.InferOutput<typeof DialogRegionSchema>;
export type PresetKind = 'agent' | 'process' | 'shell';
/** The preset of each kind. */
export type PresetOf<K extends PresetKind> = K extends 'agent' ? AgentPreset : K extends 'process' ? ProcessPreset : ShellPreset;

export type PresetParse<T> = { ok: true; preset: T } | { ok: false; problems: string[] };

/** One line per problem: "<dotted.field>: <problem> (received <value>)". */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const field = v.getDotPath(issue) ?? '(top level)';
    const received = issue.received;
    // valibot's own wording for the three structural problems reads poorly to a user editing JSON.
    if (issue.expected === 'never') return `${field}: unknown field (not part of this preset kind; check the spelling)`;
    if (received === 'undefined' && issue.kind === 'schema') return `${field}: required field is missing`;
    if (issue.kind === 'schema') return `${field}: expected ${issue.expected}, received ${received}`;
    return `${field}: ${issue.message}${issue.message.includes('received') ? '' : ` (received ${received})`}`;
  });
}

export function parsePreset<K extends PresetKind>(kind: K, value: unknown): PresetParse<PresetOf<K>> {
  const schema = kind === 'agent' ? AgentPresetSchema : kind === 'process' ? ProcessPresetSchema : ShellPresetSchema;
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, preset: result.output as PresetOf<K> };
  return { ok: false, problems: describeIssues(result.issues) };
}
