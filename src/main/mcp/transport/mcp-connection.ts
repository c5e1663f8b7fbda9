/**
 * One MCP session over any transport: a fresh SDK Server whose tools are the
 * dispatcher's, acting for the caller its identity token names. The socket
 * server serves each accepted connection with it, and a headless patterm
 * serves its own stdin and stdout the same way. Who connected (the host's
 * `clientInfo` from `initialize`) and when they left is told through
 * McpClientEvents, so a session root can be named after its host.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Emitter, type Disposable } from '../../../shared/events.js';
import { ignoreError } from '../../../node/patterm-log.js';
import { SERVER_CAPABILITIES, SERVER_INFO } from './server-info.js';
import { loadMcpSdk } from './mcp-sdk.js';
import type { IdentityRegistry } from '../services/identity-registry.js';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';
import type { SendProgress } from '../services/progress-keepalive.js';

/** What a host says of itself in `initialize` (clientInfo). */
export interface McpClientInfo {
  name: string;
  version: string;
}

export interface McpClientEvent {
  /** The identity token the connection acts for. */
  token: string;
  /** Tells two connections with one token apart. */
  connection: number;
}

/** Connections as they introduce themselves and end. */
export class McpClientEvents implements Disposable {
  private readonly initialized = new Emitter<McpClientEvent & { client: McpClientInfo }>();
  private readonly closed = new Emitter<McpClientEvent>();
  readonly onInitialized = this.initialized.event;
  readonly onClosed = this.closed.event;
  private nextConnection = 1;

  /** A number for a new connection. */
  open(): number {
    return this.nextConnection++;
  }

  fireInitialized(event: McpClientEvent & { client: McpClientInfo }): void {
    this.initialized.fire(event);
  }

  fireClosed(event: McpClientEvent): void {
    this.closed.fire(event);
  }

  dispose(): void {
    this.initialized.dispose();
    this.closed.dispose();
  }
}

/**
 * Serves MCP for `token` over `transport` until it closes. Resolves once the
 * server is connected (the transport started); `events` hears of the client's
 * introduction and of the end.
 */
export async function serveMcpConnection(transport: Transport, token: string, identities: IdentityRegistry, dispatcher: ToolDispatcher, events: McpClientEvents): Promise<void> {
  const { Server, ListToolsRequestSchema, CallToolRequestSchema } = await loadMcpSdk();
  const server = new Server(SERVER_INFO, { capabilities: SERVER_CAPABILITIES });
  const connection = events.open();
  // Protocol-level errors are answered on the wire; stdout and stderr belong to the TUI or the host.
  server.onerror = ignoreError('the MCP protocol');
  server.oninitialized = () => {
    const client = server.getClientVersion();
    if (client) events.fireInitialized({ token, connection, client: { name: client.name, version: client.version } });
  };
  server.onclose = () => events.fireClosed({ token, connection });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const state = identities.state(token);
    return { tools: state.kind === 'live' ? dispatcher.list(state.identity) : [] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    const sendProgress: SendProgress | null =
      progressToken === undefined ? null : (update) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } });
    return dispatcher.call(request.params.name, request.params.arguments, token, extra.signal, sendProgress);
  });
  await server.connect(transport);
}
