/**
 * A worktree operation that cannot go ahead, with a message for the person or
 * model that asked (what is wrong, and what to do). MCP tools return it as an
 * error result; the TUI shows it in the status line.
 */
import { DetailedError } from '../../shared/detailed-error.js';

export class WorktreeError extends DetailedError {
  override readonly name = 'WorktreeError';
}
