import type { Coordinator } from '../coordinator.js';
import type { PaneId } from '../../shared/pane-types.js';
import { ToolError } from './tool-kit.js';

/** Names identify senders in `[sub-agent:<name>]` tags, so two live panes of a session may not share one. */
export function assertNameFree(coordinator: Coordinator, callerId: PaneId, name: string): void {
  const sessionId = coordinator.info(callerId).sessionId;
  const clash = coordinator.allPanes().find((pane) => pane.sessionId === sessionId && pane.name === name && pane.process.status === 'running');
  if (clash) throw new ToolError(`name ${JSON.stringify(name)} is already used by a running pane of this session (child_id ${clash.id}); choose another`);
}
