/**
 * An agent preset's `conversation` section: how patterm learns which of its
 * CLI's conversations a pane holds, and how to start that CLI again on it.
 * The knowledge of each CLI lives in its preset file, never in code, so a user
 * can teach patterm another CLI (or a new version of one) by editing JSON.
 * Pure: no Node APIs (this folder's tsconfig enforces it).
 */
import * as v from 'valibot';
import { compilePattern } from './pattern.js';

const NoNul = v.pipe(v.string(), v.check((value) => !value.includes('\0'), 'must not contain a NUL character'));

/** A field of a JSON object, by a dotted path ("session_id", "time.created", "payload.cwd"). */
const FieldPath = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'must be a field name, or names joined by "." for a nested field'));

const withPlaceholder = (placeholder: string) =>
  v.pipe(
    v.array(NoNul),
    v.check((args) => args.some((arg) => arg.includes(placeholder)), `must contain "${placeholder}" where patterm puts it`),
  );

/** Named group "id" marks the conversation id in the path: `rollout-.*-(?<id>[0-9a-f-]{36})\.jsonl$`. */
const PathPattern = v.pipe(
  v.string(),
  v.nonEmpty('must not be empty'),
  v.check((value) => {
    try {
      compilePattern(value);
      return true;
    } catch {
      return false;
    }
  }, 'is not a valid regular expression'),
  v.check((value) => value.includes('(?<id>'), 'must mark the conversation id with a named group (?<id>…)'),
);

/** patterm picks a fresh UUID and passes it at start (claude: `--session-id {id}`). */
const ChosenId = v.strictObject({
  kind: v.literal('chosen_uuid'),
  args: withPlaceholder('{id}'),
});

/**
 * The CLI holds its conversation file open: patterm reads the open files of the
 * pane's processes (/proc/<pid>/fd) and takes the one whose path matches
 * (codex's rollout). Several matches: the one written last is the live one.
 */
const OpenFileId = v.strictObject({
  kind: v.literal('open_file'),
  path_pattern: PathPattern,
  /** Fields of the file's first line (JSON) that must agree: its id, and the pane's working directory. */
  confirm: v.optional(v.strictObject({ id_field: v.optional(FieldPath), cwd_field: v.optional(FieldPath) })),
});

/**
 * The CLI lists its conversations (opencode: `opencode session list --format json`):
 * patterm runs the listing in the pane's directory after the pane's turns and takes
 * a conversation made there after the spawn, only when the evidence names one pane.
 */
const ListingId = v.strictObject({
  kind: v.literal('listing'),
  argv: v.pipe(v.array(NoNul), v.minLength(1, 'must name a program (received an empty list)')),
  id_field: FieldPath,
  directory_field: FieldPath,
  /** When the conversation was made: milliseconds since the epoch, or a date string. */
  created_field: FieldPath,
});

/**
 * A hook the CLI runs when its conversation starts or changes (claude's
 * SessionStart, which also fires after `/clear`), added for this launch only:
 * `args` go on the command line with `{settings}` replaced by `settings` as
 * JSON, in which the string `{command}` becomes the command that reports to
 * patterm. The hook's input is a JSON object; `fields` name what to take from it.
 */
const ReportHook = v.strictObject({
  args: withPlaceholder('{settings}'),
  settings: v.pipe(
    v.record(v.string(), v.unknown()),
    v.check((settings) => JSON.stringify(settings).includes('{command}'), 'must contain the string "{command}" where the report command goes'),
  ),
  fields: v.strictObject({
    id: FieldPath,
    /** Why the conversation started ("startup", "resume", "clear"), kept as provenance. */
    source: v.optional(FieldPath),
    /** Where the conversation is kept, so a resume can tell when it is gone. */
    file: v.optional(FieldPath),
  }),
});

export const ConversationSchema = v.strictObject({
  id: v.variant('kind', [ChosenId, OpenFileId, ListingId]),
  report: v.optional(ReportHook),
  /**
   * Resume conversation `{id}` (claude `--resume {id}`, codex `resume {id}`). Like `id.args` and
   * `report.args`, they go after the preset's argv and before patterm's MCP wiring.
   */
  resume_args: withPlaceholder('{id}'),
});

export type Conversation = v.InferOutput<typeof ConversationSchema>;
export type ConversationIdSource = Conversation['id'];
export type ConversationReport = NonNullable<Conversation['report']>;

/** Reads a dotted field path out of parsed JSON; undefined when any step is missing. */
export function readField(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Replaces `placeholder` in every argument. */
export function fillArgs(args: readonly string[], placeholder: string, value: string): string[] {
  return args.map((arg) => arg.split(placeholder).join(value));
}
