/**
 * The shell pane a shell tool call names, checked as every tool checks its
 * target (child-registry.ts), plus: it must be a shell pane.
 */
import type { CallerIdentity } from '../../contracts.js';
import type { PaneInfo } from '../../../shared/pane-types.js';
import type { ShellPanes, ShellSession, Writer } from '../../shells/index.js';
import type { ChildRegistry } from './child-registry.js';
import type { Coordinator } from '../../coordinator.js';
import { ToolError } from './tool-error.js';

export function shellTarget(services: { children: ChildRegistry; shells: ShellPanes }, caller: CallerIdentity, childId: string): { pane: PaneInfo; session: ShellSession } {
  const pane = services.children.resolveTarget(caller, childId);
  const session = services.shells.session(pane.id);
  if (!session) {
    throw new ToolError(`child_id ${JSON.stringify(childId)} (${pane.name}) is not a shell pane: the shell tools work on panes started with spawn_shell or a shell preset. Type into it with send_input instead`);
  }
  return { pane, session };
}

/** The calling agent, as a command's writer. */
export function agentWriter(coordinator: Coordinator, caller: CallerIdentity): Writer {
  return { kind: 'agent', paneId: caller.paneId, name: coordinator.has(caller.paneId) ? coordinator.info(caller.paneId).name : caller.paneId };
}
