/**
 * Schema pieces shared by several tools, so the same field means the same
 * thing (and is validated the same way) everywhere.
 */
import * as v from 'valibot';
import { PANE_NAME_PATTERN, PANE_NAME_RULE } from '../../../shared/pane-name.js';

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

export const RegexSchema = (description: string) =>
  v.pipe(v.string(), v.minLength(1, 'the pattern is empty'), v.maxLength(4096), v.description(description));

export const NotifyOnExitSchema = v.optional(
  v.pipe(
    v.boolean(),
    v.description('When true (the default), "[system] <name> exited with code N" is typed into your input when this child exits on its own. Not sent for children you kill yourself.'),
  ),
  true,
);
