/**
 * The session tree: every live pane by id, and the sessions they
 * form. A session has one root pane (the orchestrator, or the process the user
 * launched) and children one level below it. Pure bookkeeping: starting,
 * ending and talking to panes is the coordinator's.
 */
import type { PaneId, PaneInfo, SessionId } from '../../shared/pane-types.js';
import type { Pane } from './pane.js';

export interface Session {
  id: SessionId;
  name: string;
  rootId: PaneId;
  childIds: PaneId[];
}

/** Where a new pane sits in the tree, decided before it starts. */
export type PanePlace = Pick<PaneInfo, 'id' | 'sessionId' | 'parentId' | 'name'>;

export class UnknownPaneError extends Error {
  override readonly name = 'UnknownPaneError';
  constructor(readonly paneId: string) {
    super(`no pane with id ${JSON.stringify(paneId)}`);
  }
}

export class PaneTree {
  private readonly panes = new Map<PaneId, Pane>();
  private readonly sessions = new Map<SessionId, Session>();
  private readonly nameCounters = new Map<string, number>();

  listSessions(): Session[] {
    return [...this.sessions.values()];
  }

  session(id: SessionId): Session | undefined {
    return this.sessions.get(id);
  }

  has(id: PaneId): boolean {
    return this.panes.has(id);
  }

  /** The pane, or UnknownPaneError: every public call on a pane id starts here. */
  get(id: PaneId): Pane {
    const pane = this.panes.get(id);
    if (!pane) throw new UnknownPaneError(id);
    return pane;
  }

  find(id: PaneId): Pane | undefined {
    return this.panes.get(id);
  }

  all(): Pane[] {
    return [...this.panes.values()];
  }

  /** The children of the session `id` belongs to. */
  children(id: PaneId): Pane[] {
    const session = this.sessions.get(this.get(id).info.sessionId);
    return (session?.childIds ?? []).flatMap((child) => this.panes.get(child) ?? []);
  }

  /**
   * A new pane's place: a child of its parent's session root (the tree is one
   * level deep), or the root of a new session. `name` defaults to the next of
   * `<base>-N` (base: a plain form of the preset name, see pane-name.ts).
   */
  place(id: PaneId, parentId: PaneId | undefined, name: string | undefined, nameBase: string): PanePlace {
    const parent = parentId !== undefined ? this.get(parentId) : null;
    const session = parent ? this.sessions.get(parent.info.sessionId)! : null;
    const sessionId = session?.id ?? id;
    return { id, sessionId, parentId: session ? session.rootId : null, name: name ?? this.nextName(nameBase, sessionId) };
  }

  /**
   * Enters a started pane at the place it was given. False, and nothing
   * entered, when that place is gone: its session was closed while the pane
   * started.
   */
  add(pane: Pane): boolean {
    const { id, sessionId, parentId, name } = pane.info;
    const session = this.sessions.get(sessionId);
    if (parentId !== null && !session) return false;
    this.panes.set(id, pane);
    if (session) session.childIds.push(id);
    else this.sessions.set(id, { id, name, rootId: id, childIds: [] });
    return true;
  }

  isSessionRoot(id: PaneId): boolean {
    return this.sessions.get(id)?.rootId === id;
  }

  /** What closing `id` takes with it: a session root takes its children. */
  closingWith(id: PaneId): PaneId[] {
    const session = this.sessions.get(this.get(id).info.sessionId);
    return session && session.rootId === id ? [id, ...session.childIds] : [id];
  }

  /** Takes `id` out of the tree (a root ends its session); returns the pane that was there. */
  remove(id: PaneId): Pane | undefined {
    const pane = this.panes.get(id);
    this.panes.delete(id);
    if (!pane) return undefined;
    const session = this.sessions.get(pane.info.sessionId);
    if (session?.rootId === id) this.sessions.delete(session.id);
    else if (session) session.childIds = session.childIds.filter((child) => child !== id);
    return pane;
  }

  rename(id: PaneId, name: string): Pane {
    const pane = this.get(id);
    pane.info.name = name;
    const session = this.sessions.get(id);
    if (session) session.name = name;
    return pane;
  }

  clear(): void {
    this.panes.clear();
    this.sessions.clear();
  }

  /** The next `<base>-N` not already held by a running pane of the session (a caller may have chosen it by hand). */
  private nextName(base: string, sessionId: PaneId): string {
    const taken = new Set([...this.panes.values()].filter((pane) => pane.info.sessionId === sessionId && pane.running).map((pane) => pane.info.name));
    let n = this.nameCounters.get(base) ?? 0;
    do n++;
    while (taken.has(`${base}-${n}`));
    this.nameCounters.set(base, n);
    return `${base}-${n}`;
  }
}
