/**
 * The error a tool throws when its message is meant for the calling model.
 * Its own file so that the services tools use (child registry, pane names)
 * can throw it without importing the tool kit, which imports their context.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
