/**
 * A worktree's name is both the last part of its branch (`patterm/<name>`) and
 * its directory's name, so it must be a valid git ref component and a single
 * path component. Whatever a caller asks for ("fix login/bug", "Café #2") is
 * made into one ("fix-login-bug", "Cafe-2"), and the result says so.
 */
import { WorktreeError } from './worktree-error.js';

export const BRANCH_PREFIX = 'patterm/';
/** Long enough for a description, short enough for a directory name in a prompt. */
const MAX_NAME_LENGTH = 64;


/**
 * The plain form of `wanted`: runs of anything but letters, digits, ".", "_"
 * and "-" become "-" (spaces, "/", and the characters git forbids in refs:
 * `~^:?*[\`, "@{", control characters), ".." becomes ".", and the ends lose
 * dots and dashes (a ref part cannot start with "." or end with ".lock").
 */
export function sanitizeWorktreeName(wanted: string): string {
  const plain = wanted
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/\.lock$/i, '-lock')
    .replace(/[._-]+$/, '');
  if (plain === '') throw new WorktreeError(`worktree name ${JSON.stringify(wanted)} has no letters or digits to make a branch or directory name from; give a name such as "fix-login"`);
  return plain;
}

export function branchFor(name: string): string {
  return `${BRANCH_PREFIX}${name}`;
}

/** `<base>-2`, `<base>-3`, … for `worktree: true` when the child's own name is taken by another worktree. */
export function numberedName(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, MAX_NAME_LENGTH - suffix.length).replace(/[._-]+$/, '')}${suffix}`;
}
