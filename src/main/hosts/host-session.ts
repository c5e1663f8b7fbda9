/**
 * A session whose orchestrator is an MCP host outside patterm (Claude Code in
 * another terminal, an IDE agent, a script on an MCP SDK). Its root pane runs
 * the host's notice board (host-pane.ts); the host's identity token is bound to
 * that pane, so the host is the session's orchestrator under the usual identity
 * rules, and the token dies with the pane. Messages that a pane would get typed
 * into its input are kept for the host's next tool result (caller-inbox.ts) and
 * shown on the board.
 *
 * The root is named after the host as it introduces itself (`clientInfo.name`
 * in `initialize`), so the tree and `list_children` say who spawned what; with
 * no host connected the name says "(offline)".
 */
import type { Coordinator } from '../coordinator.js';
import type { McpServerHandle } from '../mcp/index.js';
import type { McpClientInfo } from '../mcp/transport/mcp-connection.js';
import type { PaneId, PaneInfo, PaneOwner } from '../../shared/pane-types.js';
import { Emitter, type Disposable } from '../../shared/events.js';
import { DEFAULT_KILL_GRACE_MS } from '../../node/process-reaper.js';
import { ignoreError, logIgnored } from '../../node/patterm-log.js';
import { boardText, clock, HOST_PANE_READY_LINE, hostPaneArgv } from './host-pane.js';

/** How long the board program may take to start before lines are typed into it anyway. */
const BOARD_READY_TIMEOUT_MS = 10_000;
/** A host's name in the tree: long enough for any real client's, short enough for a tab. */
const MAX_HOST_NAME_CHARS = 40;
const OFFLINE = ' (offline)';

export interface HostSessionOptions {
  coordinator: Coordinator;
  mcp: McpServerHandle;
  /** The root's name until a host introduces itself. */
  name: string;
  /** 'user' for a session the human opened in the TUI (it gets the focus). */
  owner: PaneOwner;
  /** Whether a host is connected already (a headless patterm serves the one that started it). */
  connected?: boolean;
}

export class HostSession implements Disposable {
  private readonly subscriptions: Disposable[] = [];
  /** Open connections that introduced themselves with this session's token. */
  private readonly connections = new Map<number, McpClientInfo>();
  private baseName: string;
  private boardReady: Promise<void>;
  private readonly ended = new Emitter<PaneInfo>();
  /** The root pane exited: the token is revoked and the session's children are being ended. */
  readonly onEnded = this.ended.event;

  private constructor(
    private readonly options: HostSessionOptions,
    readonly root: PaneInfo,
    readonly token: string,
  ) {
    const { coordinator, mcp } = options;
    this.baseName = options.name;
    mcp.inbox.open(root.id);
    this.boardReady = coordinator
      .waitFor(root.id, { pattern: 'MCP host outside patterm', timeoutMs: BOARD_READY_TIMEOUT_MS })
      .then((result) => {
        if (!result.matched) logIgnored(`the board of host session ${root.id}`, new Error(`its first line (${HOST_PANE_READY_LINE}) never showed`));
      }, ignoreError(`waiting for the board of host session ${root.id}`));
    this.subscriptions.push(
      mcp.clients.onInitialized(({ token: used, connection, client }) => used === token && this.connected(connection, client)),
      mcp.clients.onClosed(({ token: used, connection }) => used === token && this.disconnected(connection)),
      mcp.inbox.onKept(({ paneId, text }) => paneId === root.id && this.show([`${clock()} for the host: ${text}`])),
      coordinator.onPaneExited((pane) => pane.id === root.id && this.end(pane)),
    );
  }

  /** Starts the root pane and binds a fresh identity token to it. */
  static async open(options: HostSessionOptions): Promise<HostSession> {
    const { coordinator, mcp } = options;
    const name = options.connected ? options.name : options.name + OFFLINE;
    const root = await coordinator.spawn({ argv: hostPaneArgv(), kind: 'agent', name, owner: options.owner });
    const token = mcp.identities.issue();
    mcp.identities.bind(token, root.id);
    return new HostSession({ ...options, name: options.name }, root, token);
  }

  get rootId(): PaneId {
    return this.root.id;
  }

  get isConnected(): boolean {
    return this.connections.size > 0;
  }

  /** Prints lines on the board, after whatever was printed before. */
  show(lines: readonly string[]): void {
    const { coordinator } = this.options;
    void this.boardReady.then(() => {
      if (coordinator.has(this.root.id) && coordinator.info(this.root.id).process.status === 'running') coordinator.write(this.root.id, boardText(lines), 'system');
    });
  }

  private connected(connection: number, client: McpClientInfo): void {
    this.connections.set(connection, client);
    this.baseName = hostName(client.name);
    this.rename(this.baseName);
    this.show([`${clock()} connected: ${client.name} ${client.version}`.trimEnd()]);
  }

  private disconnected(connection: number): void {
    const client = this.connections.get(connection);
    if (!this.connections.delete(connection) || !client) return;
    if (this.connections.size === 0) this.rename(this.baseName + OFFLINE);
    this.show([`${clock()} disconnected: ${client.name}${this.connections.size > 0 ? ` (${this.connections.size} connection${this.connections.size === 1 ? '' : 's'} still open)` : ''}`]);
  }

  private rename(name: string): void {
    const { coordinator } = this.options;
    if (coordinator.has(this.root.id) && coordinator.info(this.root.id).name !== name) coordinator.rename(this.root.id, name);
  }

  /**
   * Ends the session as closing its tab does: the root gets SIGTERM, its exit
   * revokes the token (identity-registry.ts) and ends every child (the
   * coordinator's cascade for a session root).
   */
  async close(): Promise<void> {
    const { coordinator } = this.options;
    if (!coordinator.has(this.root.id) || coordinator.info(this.root.id).process.status !== 'running') return;
    await coordinator.kill(this.root.id, 'SIGTERM', DEFAULT_KILL_GRACE_MS);
  }

  private end(pane: PaneInfo): void {
    this.dispose();
    this.ended.fire(pane);
    this.ended.dispose();
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.options.mcp.inbox.close(this.root.id);
  }
}

/** What the tree calls a host: its clientInfo.name, printable and short, or a stand-in for an empty one. */
export function hostName(raw: string): string {
  const clean = [...raw.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').replace(/\s+/g, ' ').trim()].slice(0, MAX_HOST_NAME_CHARS).join('');
  return clean || 'mcp-host';
}
