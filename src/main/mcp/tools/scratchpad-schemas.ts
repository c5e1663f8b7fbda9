import * as v from 'valibot';
import { MAX_SCRATCHPAD_BYTES, ABSENT_REVISION } from '../../scratchpads/scratchpad-store.js';
import { MAX_SCRATCHPAD_NAME_LENGTH } from '../../scratchpads/scratchpad-name.js';

/** Name checks that need more than a length (separators, "..") happen in the store, with a precise message. */
export const ScratchpadNameSchema = v.pipe(
  v.string(),
  v.minLength(1, 'name is empty; use a file name such as "notes.md"'),
  v.maxLength(MAX_SCRATCHPAD_NAME_LENGTH),
  v.description('Scratchpad file name, e.g. "todos.md": letters, digits, ".", "_", "-", ending in ".md"; no directories.'),
);

export const ScratchpadContentSchema = (description: string) =>
  v.pipe(v.string(), v.maxLength(MAX_SCRATCHPAD_BYTES, (issue) => `content is ${String(issue.input).length} characters; a scratchpad holds at most ${MAX_SCRATCHPAD_BYTES} bytes`), v.description(description));

export const ExpectedRevisionSchema = v.optional(
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(64),
    v.description(`The revision from your last scratchpad_read. If the scratchpad changed since, nothing is written and you get an error, so you can re-read and merge instead of overwriting someone's update. Use "${ABSENT_REVISION}" to require that it does not exist yet.`),
  ),
);
