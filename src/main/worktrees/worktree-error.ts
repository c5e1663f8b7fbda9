/**
 * A worktree operation that cannot go ahead, with a message for the person or
 * model that asked (what is wrong, and what to do). MCP tools return it as an
 * error result; the TUI shows it in the status line.
 */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
