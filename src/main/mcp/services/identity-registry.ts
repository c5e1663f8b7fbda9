/**
 * Identity tokens for MCP connections. Every agent pane gets its own token in
 * its proxy's argv; the token is the only thing that tells the server who is
 * calling. A token dies with its pane.
 *
 * Tokens are issued before the pane exists (the pane's argv has to carry it),
 * then bound once the coordinator has given the pane an id.
 */
import { randomBytes } from 'node:crypto';
import type { Coordinator } from '../../coordinator.js';
import type { CallerIdentity, IdentityIssuer } from '../../contracts.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { Emitter, type Disposable } from '../../../shared/events.js';

/** 192 bits from the OS CSPRNG: unguessable, and short enough for an argv. */
const TOKEN_BYTES = 24;

export type TokenState =
  | { kind: 'live'; identity: CallerIdentity }
  | { kind: 'unbound' }
  | { kind: 'revoked'; paneName: string }
  | { kind: 'unknown' };

interface Entry {
  paneId: PaneId | null;
}

export class IdentityRegistry implements IdentityIssuer, Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Revoked tokens, remembered only to give a better refusal than "unknown". */
  private readonly revoked = new Map<string, string>();
  private readonly bound = new Emitter<string>();
  private readonly revokedEmitter = new Emitter<string>();
  /** Fires with each token as it is revoked (open connections using it are closed). */
  readonly onRevoked = this.revokedEmitter.event;
  private readonly subscription: Disposable;

  constructor(private readonly coordinator: Coordinator) {
    this.subscription = coordinator.onPaneExited((pane) => this.revokePane(pane.id));
  }

  issue(): string {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    this.entries.set(token, { paneId: null });
    return token;
  }

  bind(token: string, paneId: PaneId): void {
    const entry = this.entries.get(token);
    if (!entry) throw new Error(`cannot bind identity token: it was not issued by this registry (or was revoked)`);
    if (entry.paneId !== null && entry.paneId !== paneId) {
      throw new Error(`identity token is already bound to pane ${JSON.stringify(entry.paneId)}; cannot rebind it to ${JSON.stringify(paneId)}`);
    }
    if (!this.coordinator.has(paneId)) throw new Error(`cannot bind identity token to pane ${JSON.stringify(paneId)}: no such pane`);
    entry.paneId = paneId;
    // A pane that died before it was bound must not leave a live token behind.
    if (this.coordinator.info(paneId).process.status !== 'running') {
      this.revokePane(paneId);
      return;
    }
    this.bound.fire(token);
  }

  revokePane(paneId: PaneId): void {
    for (const [token, entry] of this.entries) {
      if (entry.paneId !== paneId) continue;
      this.entries.delete(token);
      this.revoked.set(token, this.coordinator.has(paneId) ? this.coordinator.info(paneId).name : paneId);
      this.revokedEmitter.fire(token);
    }
  }

  resolve(token: string): CallerIdentity | null {
    const state = this.state(token);
    return state.kind === 'live' ? state.identity : null;
  }

  state(token: string): TokenState {
    const entry = this.entries.get(token);
    if (!entry) {
      const paneName = this.revoked.get(token);
      return paneName !== undefined ? { kind: 'revoked', paneName } : { kind: 'unknown' };
    }
    if (entry.paneId === null) return { kind: 'unbound' };
    if (!this.coordinator.has(entry.paneId)) {
      this.revokePane(entry.paneId);
      return this.state(token);
    }
    const pane = this.coordinator.info(entry.paneId);
    return {
      kind: 'live',
      identity: { token, paneId: pane.id, sessionId: pane.sessionId, role: pane.parentId === null ? 'orchestrator' : 'child' },
    };
  }

  /**
   * Resolves a token, waiting up to `timeoutMs` when it was issued but its pane
   * is not bound yet (a fast agent can connect before its spawn call returns).
   */
  async settle(token: string, timeoutMs: number): Promise<TokenState> {
    if (this.state(token).kind !== 'unbound') return this.state(token);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        boundSub.dispose();
        revokedSub.dispose();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const boundSub = this.bound.event((bound) => bound === token && done());
      const revokedSub = this.revokedEmitter.event((revoked) => revoked === token && done());
    });
    return this.state(token);
  }

  dispose(): void {
    this.subscription.dispose();
    this.bound.dispose();
    this.revokedEmitter.dispose();
  }
}
