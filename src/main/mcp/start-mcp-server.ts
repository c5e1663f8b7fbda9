/**
 * Assembles patterm's MCP side: identity tokens, the socket, the tool services
 * and the scratchpad store. app.ts calls this once at start-up and disposes
 * the handle on exit (which removes the socket).
 */
import type { AgentLauncher, McpEndpoint } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { Disposable } from '../../shared/events.js';
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import { ScratchpadStore } from '../scratchpads/scratchpad-store.js';
import { ChildRegistry } from './services/child-registry.js';
import { IdentityRegistry } from './services/identity-registry.js';
import { McpSocketServer, type ConnectionDeadlines } from './transport/mcp-socket-server.js';
import { MessageDelivery } from './services/message-delivery.js';
import { claimSocketPath } from './transport/socket-path.js';
import { TimerService } from './services/timer-service.js';
import { ToolDispatcher } from './tools/tool-dispatcher.js';
import { ALL_TOOLS } from './tools/index.js';
import { AgentStateTracker } from '../agents/agent-state-tracker.js';
import { ParentNotices } from './services/parent-notices.js';
import { POLICY_OFF, type PermissionPolicy } from './services/permission-policy.js';
import { PATTERM_BIN } from '../version.js';
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
  /** Which approvals an orchestrator may give (permission-policy.ts); default off. */
  permissionPolicy?: PermissionPolicy;
  /** How long an unauthenticated connection may last; tests shorten the defaults. */
  deadlines?: ConnectionDeadlines;
  /** Test-only: how often long calls send progress (default PROGRESS_INTERVAL_MS). */
  progressIntervalMs?: number;
}

export interface McpServerHandle extends McpEndpoint {
  identities: IdentityRegistry;
  launcher: AgentLauncher;
  /** The project's scratchpads; the TUI rail lists them and subscribes to `scratchpads.onChanged`. */
  scratchpads: ScratchpadStore;
  /** Every pane's agent state; the TUI marks the panes that wait for an answer. */
  states: AgentStateTracker;
  /** Hands `pane` to `spawnerId` as if it had spawned it (a resumed child goes back under its spawner's care). */
  adoptChild(pane: PaneInfo, spawnerId: PaneId, notifyOnExit: boolean): void;
  /** Types `[system] <text>` into an agent once it is idle at its prompt (ParentNotices). */
  tellAgent(paneId: PaneId, text: string): void;
  /** request_human_attention events (the same stream as coordinator.onAttention). */
  onAttention: Coordinator['onAttention'];
  /** Open MCP connections (for tests and diagnostics). */
  readonly connectionCount: number;
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
    const delivery = new MessageDelivery(coordinator, launcher);
    const states = new AgentStateTracker({ coordinator, presetFor: (paneId) => launcher.presetFor(paneId) });
    const notices = new ParentNotices(coordinator, delivery, states);
    const children = new ChildRegistry(coordinator, notices, states);
    const timers = new TimerService(coordinator, delivery);
    disposables.push(children, timers, states);
    const policy = options.permissionPolicy ?? POLICY_OFF;
    const dispatcher = new ToolDispatcher(ALL_TOOLS, { coordinator, launcher, identities, scratchpads, children, delivery, timers, states, policy }, options.progressIntervalMs);
    const server = await McpSocketServer.listen(socketPath, identities, dispatcher, options.deadlines);
    disposables.unshift(server);
    return {
      ...endpoint,
      identities,
      launcher,
      scratchpads,
      states,
      adoptChild: (pane, spawnerId, notifyOnExit) => void children.record(pane, spawnerId, { notifyOnExit }),
      tellAgent: (paneId, text) => notices.tell(paneId, text),
      onAttention: coordinator.onAttention,
      get connectionCount() {
        return server.connectionCount;
      },
      dispose: () => disposeAll(disposables),
    };
  } catch (error) {
    await disposeAll(disposables);
    throw error;
  }
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

