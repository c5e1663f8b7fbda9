/**
 * Assembles patterm's MCP side: identity tokens, the socket, the tool services
 * and the scratchpad store. app.ts calls this once at start-up and disposes
 * the handle on exit (which removes the socket).
 */
import type { AgentLauncher, McpEndpoint } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { Disposable } from '../../shared/events.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import { ScratchpadStore } from '../scratchpads/scratchpad-store.js';
import { ChildRegistry } from './services/child-registry.js';
import { IdentityRegistry } from './services/identity-registry.js';
import { McpSocketServer, type ConnectionDeadlines } from './transport/mcp-socket-server.js';
import { MessageDelivery } from './services/message-delivery.js';
import { claimSocketPath } from './transport/socket-path.js';
import { TimerService } from './services/timer-service.js';
import { ToolDispatcher } from './tools/tool-dispatcher.js';
import type { HumanAttention } from './tools/tool-context.js';
import { CallerInbox } from './services/caller-inbox.js';
import { serveMcpConnection, type McpClientEvents } from './transport/mcp-connection.js';
import { ALL_TOOLS } from './tools/index.js';
import { AgentStateTracker } from '../agents/agent-state-tracker.js';
import { ParentNotices } from './services/parent-notices.js';
import { POLICY_OFF, type PermissionPolicy } from './services/permission-policy.js';
import { PATTERM_BIN } from '../version.js';
import { Worktrees } from '../worktrees/worktrees.js';
import type { WorktreeSettings } from '../worktrees/worktree-settings.js';
import { ShellPanes } from '../shells/index.js';
import type { PresetCatalog } from '../presets/preset-catalog.js';
import { CommandNotices } from './services/command-notices.js';
import { logIgnored } from '../../node/patterm-log.js';


export interface StartMcpServerOptions {
  coordinator: Coordinator;
  projectDir: string;
  /**
   * The agent launcher, or a factory for it: the launcher needs the endpoint
   * (to put each agent's proxy command in its MCP config) and the server needs
   * the launcher (for spawn_agent and message delivery).
   */
  launcher: AgentLauncher | ((endpoint: McpEndpoint) => AgentLauncher | Promise<AgentLauncher>);
  /** Defaults to PATTERM_SOCKET, else $XDG_RUNTIME_DIR/patterm/<pid>.sock, else a private mkdtemp directory (socket-path.ts). */
  socketPath?: string;
  /** Defaults to $XDG_DATA_HOME (or ~/.local/share). */
  dataHome?: string;
  /** Shell panes, shared with the TUI; one is made (ledgers under `stateHome`) when not given. */
  shells?: ShellPanes;
  /** Where a ShellPanes made here finds shell presets. */
  catalog?: PresetCatalog;
  /** Which approvals an orchestrator may give (permission-policy.ts); default off. */
  permissionPolicy?: PermissionPolicy;
  /** The project's worktrees (the app shares them with the TUI); default: made here with config.json's defaults. */
  worktrees?: Worktrees;
  /** Where shell ledgers and worktree records go (when `shells` or `worktrees` is not given); default $XDG_STATE_HOME (or ~/.local/state). */
  stateHome?: string;
  /** When `worktrees` is not given: config.json's "worktrees". */
  worktreeSettings?: WorktreeSettings;
  /** How long an unauthenticated connection may last; tests shorten the defaults. */
  deadlines?: ConnectionDeadlines;
  /** Test-only: how often long calls send progress (default PROGRESS_INTERVAL_MS). */
  progressIntervalMs?: number;
  /** How request_human_attention reaches the human; default: the TUI (coordinator.onAttention). */
  attention?: HumanAttention;
}

export interface McpServerHandle extends McpEndpoint {
  identities: IdentityRegistry;
  launcher: AgentLauncher;
  /** The project's scratchpads; the TUI rail lists them and subscribes to `scratchpads.onChanged`. */
  scratchpads: ScratchpadStore;
  /** Every pane's agent state; the TUI marks the panes that wait for an answer. */
  states: AgentStateTracker;
  worktrees: Worktrees;
  /** Shell panes and their ledgers. */
  shells: ShellPanes;
  /** Hands `pane` to `spawnerId` as if it had spawned it (a resumed child goes back under its spawner's care). */
  adoptChild(pane: PaneInfo, spawnerId: PaneId, notifyOnExit: boolean): void;
  /** Types `[system] <text>` into an agent once it is idle at its prompt (ParentNotices). */
  tellAgent(paneId: PaneId, text: string): void;
  /** request_human_attention events (the same stream as coordinator.onAttention). */
  onAttention: Coordinator['onAttention'];
  /** Open MCP connections (for tests and diagnostics). */
  readonly connectionCount: number;
  /** Connections as their hosts introduce themselves (initialize) and as they end. */
  clients: McpClientEvents;
  /** Messages kept for session roots that are MCP hosts, not panes with an input (caller-inbox.ts). */
  inbox: CallerInbox;
  /** Serves MCP for `token` over a transport of the caller's (a headless patterm's stdin and stdout). */
  serveTransport(transport: Transport, token: string): Promise<void>;
  /** Closes every connection, removes the socket, cancels timers. */
  dispose(): Promise<void>;
}

export async function startMcpServer(options: StartMcpServerOptions): Promise<McpServerHandle> {
  const { coordinator } = options;
  const location = await claimSocketPath(options.socketPath);
  const socketPath = location.path;
  const identities = new IdentityRegistry(coordinator);
  const endpoint: McpEndpoint = {
    socketPath,
    identities,
    proxyCommand: (token) => [process.execPath, PATTERM_BIN, 'mcp-stdio', '--socket', socketPath, '--identity', token],
  };
  // Last: the private directory goes once the socket in it is gone.
  const disposables: (Disposable | { dispose(): Promise<void> })[] = [identities, { dispose: () => location.release() }];
  try {
    const launcher = typeof options.launcher === 'function' ? await options.launcher(endpoint) : options.launcher;
    const scratchpads = await ScratchpadStore.open({ projectDir: options.projectDir, dataHome: options.dataHome });
    disposables.push(scratchpads);
    const inbox = new CallerInbox();
    disposables.push(inbox);
    const delivery = new MessageDelivery(coordinator, launcher, inbox);
    const states = new AgentStateTracker({ coordinator, presetFor: (paneId) => launcher.presetFor(paneId) });
    const notices = new ParentNotices(coordinator, delivery, states);
    const children = new ChildRegistry(coordinator, notices, states);
    const timers = new TimerService(coordinator, delivery);
    const shells = options.shells ?? new ShellPanes({ coordinator, stateHome: options.stateHome, catalog: options.catalog });
    if (!options.shells) disposables.push(shells);
    const commandNotices = new CommandNotices(coordinator, shells, notices);
    disposables.push(children, timers, states, commandNotices);
    const policy = options.permissionPolicy ?? POLICY_OFF;
    const attention = options.attention ?? tuiAttention(coordinator);
    const worktrees =
      options.worktrees ?? new Worktrees({ projectDir: options.projectDir, instanceId: coordinator.instanceId, stateHome: options.stateHome, settings: options.worktreeSettings, panes: () => coordinator.allPanes() });
    const dispatcher = new ToolDispatcher(ALL_TOOLS, { coordinator, launcher, identities, scratchpads, children, delivery, timers, states, policy, attention, worktrees, shells, commandNotices }, options.progressIntervalMs);
    const server = await McpSocketServer.listen(socketPath, identities, dispatcher, options.deadlines);
    disposables.unshift(server);
    return {
      ...endpoint,
      identities,
      launcher,
      scratchpads,
      states,
      worktrees,
      shells,
      adoptChild: (pane, spawnerId, notifyOnExit) => void children.record(pane, spawnerId, { notifyOnExit }),
      tellAgent: (paneId, text) => notices.tell(paneId, text),
      onAttention: coordinator.onAttention,
      get connectionCount() {
        return server.connectionCount;
      },
      clients: server.clients,
      inbox,
      serveTransport: (transport, token) => serveMcpConnection(transport, token, identities, dispatcher, server.clients),
      dispose: () => disposeAll(disposables),
    };
  } catch (error) {
    await disposeAll(disposables);
    throw error;
  }
}

/** The TUI shows the request: the status line, and the child blinking in the session tree. */
function tuiAttention(coordinator: Coordinator): HumanAttention {
  return {
    async request(pane, reason) {
      coordinator.requestAttention(pane.id, reason);
      return 'shown in patterm\'s status line, the child blinking in the session tree';
    },
  };
}

async function disposeAll(items: (Disposable | { dispose(): Promise<void> | void })[]): Promise<void> {
  for (const item of items.splice(0)) {
    try {
      await item.dispose();
    } catch (error) {
      // Keep going: the socket must be removed whatever else failed.
      logIgnored('stopping part of the MCP server', error);
    }
  }
}

