/**
 * Scratchpad names are plain markdown file names. Anything that could leave the
 * scratchpad directory or confuse a shell or a human reading the rail is refused,
 * with the reason and the name received.
 */

/** Long enough for descriptive names, short enough to show in the rail. */
export const MAX_SCRATCHPAD_NAME_LENGTH = 100;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*\.md$/;

/** Returns why the name is unacceptable, or null when it is fine. */
export function scratchpadNameProblem(name: string): string | null {
  const shown = JSON.stringify(name);
  if (name.length === 0) return 'the name is empty; use a file name such as "notes.md"';
  if (name.length > MAX_SCRATCHPAD_NAME_LENGTH) return `the name is ${name.length} characters; the limit is ${MAX_SCRATCHPAD_NAME_LENGTH}`;
  if (name.includes('/') || name.includes('\\')) return `${shown} contains a path separator; scratchpads are plain file names such as "notes.md", with no directories`;
  if (name.includes('..')) return `${shown} contains ".."; scratchpad names cannot refer to other directories`;
  if (!name.endsWith('.md')) return `${shown} does not end in ".md"; scratchpads are markdown files`;
  if (!NAME_PATTERN.test(name)) {
    return `${shown} has characters other than letters, digits, ".", "_" and "-", or does not start with a letter or digit`;
  }
  return null;
}

export function isScratchpadName(name: string): boolean {
  return scratchpadNameProblem(name) === null;
}
