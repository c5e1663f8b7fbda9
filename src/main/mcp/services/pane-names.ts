import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { ToolError } from './tool-error.js';

/** Names asked for by spawns still under way (session id + NUL + name), per coordinator. */
const pending = new WeakMap<Coordinator, Set<string>>();

/** Names identify senders in `[sub-agent:<name>]` tags, so two live panes of a session may not share one. */
export function assertNameFree(coordinator: Coordinator, callerId: PaneId, name: string): void {
  const sessionId = coordinator.info(callerId).sessionId;
  const clash = coordinator.allPanes().find((pane) => pane.sessionId === sessionId && pane.name === name && pane.process.status === 'running');
  if (clash) throw new ToolError(`name ${JSON.stringify(name)} is already used by a running pane of this session (child_id ${clash.id}); choose another`);
  if (pending.get(coordinator)?.has(`${sessionId}\0${name}`)) {
    throw new ToolError(`name ${JSON.stringify(name)} is being given to a pane that another call is starting in this session; choose another`);
  }
}

/**
 * Checks the name is free and holds it until `release` is called (once the
 * spawn has put the pane in the tree, or failed), so two concurrent spawns
 * cannot both take it.
 */
export function reserveName(coordinator: Coordinator, callerId: PaneId, name: string): () => void {
  assertNameFree(coordinator, callerId, name);
  const key = `${coordinator.info(callerId).sessionId}\0${name}`;
  let names = pending.get(coordinator);
  if (!names) pending.set(coordinator, (names = new Set()));
  names.add(key);
  return () => names.delete(key);
}
