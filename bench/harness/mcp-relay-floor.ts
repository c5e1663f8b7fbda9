/**
 * The floor of the MCP path on this machine: a socket server that speaks
 * patterm's handshake and answers every MCP request at once with a canned
 * result, on the thread where patterm's MCP server runs. An SDK client timing
 * `tools/call` through the real `patterm mcp-stdio` proxy to it pays every hop
 * a real read pays (client, proxy process, socket, this thread's event loop,
 * and back) and none of patterm's own work (JSON-RPC dispatch, validation, the
 * grid read in the pane's worker, serialising the grid).
 *
 * Each tool call marks input activity as a patterm tool call does
 * (tool-dispatcher.ts), so the floods yield to it in the same way and the
 * floor is measured under the same load as the reads it is a floor for.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { encodeLine, HelloSchema, decodeLine, readFirstLine, type HandshakeReply } from '../../src/main/mcp/transport/handshake.js';
import { LineSplitter } from '../../src/main/mcp/transport/line-splitter.js';
import type { InputActivity } from '../../src/shared/input-activity.js';

/** The handshake line comes first and at once; a proxy that sends nothing within this is broken. */
const HELLO_TIMEOUT_MS = 5_000;

export interface RelayFloorServer {
  close(): Promise<void>;
}

/**
 * Listens on `socketPath`. A `tools/call` answers with a text of
 * `arguments.reply_chars` characters, so the reply is as large as the real
 * one it stands for.
 */
export async function startRelayFloor(socketPath: string, activity: InputActivity): Promise<RelayFloorServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    void serve(socket, activity);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function serve(socket: Socket, activity: InputActivity): Promise<void> {
  const first = await readFirstLine(socket, HELLO_TIMEOUT_MS).catch(() => null);
  if (!first || !decodeLine(HelloSchema, first.line).ok) {
    socket.end(encodeLine({ patterm: 'refused', error: 'the relay floor expects a patterm hello' } satisfies HandshakeReply));
    return;
  }
  socket.write(encodeLine({ patterm: 'welcome', pane: 'relay-floor', role: 'orchestrator' } satisfies HandshakeReply));
  const splitter = new LineSplitter((line) => {
    const whole = line.whole();
    if (!whole) return;
    const reply = answer(JSON.parse(whole.toString('utf8')) as JsonRpcRequest, activity);
    if (reply) socket.write(encodeLine(reply));
  });
  if (first.rest.length > 0) splitter.push(first.rest);
  socket.on('data', (chunk: Buffer) => splitter.push(chunk));
  socket.resume(); // readFirstLine paused the socket so that nothing after the hello was lost
}

interface JsonRpcRequest {
  id?: number | string;
  method: string;
  params?: { protocolVersion?: string; arguments?: { reply_chars?: number } };
}

function answer(request: JsonRpcRequest, activity: InputActivity): object | null {
  if (request.id === undefined) return null; // a notification
  const reply = (result: object) => ({ jsonrpc: '2.0', id: request.id, result });
  switch (request.method) {
    case 'initialize':
      return reply({ protocolVersion: request.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'relay-floor', version: '1.0.0' } });
    case 'tools/call':
      activity.markInput();
      return reply({ content: [{ type: 'text', text: 'x'.repeat(request.params?.arguments?.reply_chars ?? 0) }] });
    default:
      return reply({});
  }
}
