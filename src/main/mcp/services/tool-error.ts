/**
 * The error a tool throws when its message is meant for the calling model.
 * Its own file so that the services tools use (child registry, pane names)
 * can throw it without importing the tool kit, which imports their context.
 */
import { DetailedError } from '../../../shared/detailed-error.js';

export class ToolError extends DetailedError {
  override readonly name = 'ToolError';
}
