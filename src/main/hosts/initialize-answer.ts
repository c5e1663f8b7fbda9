/**
 * The answer to a host's `initialize`, given before the MCP SDK has loaded.
 * A host times its server's start-up to this answer, and loading the SDK (and
 * the coordinator behind it) takes several times as long as starting Node, so
 * `patterm mcp` answers from what it knows already, the same reply the SDK's
 * Server would give, and hands the request on to the Server once it is up;
 * the Server's own reply to it is then dropped (PreAnsweredTransport).
 */
import * as v from 'valibot';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_CAPABILITIES, SERVER_INFO } from '../mcp/transport/server-info.js';

/**
 * The protocol versions the SDK's Server accepts, newest first, as its
 * SUPPORTED_PROTOCOL_VERSIONS lists them (a test holds the two equal): that
 * module cannot be imported without loading the SDK's schemas.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

const RequestIdSchema = v.union([v.string(), v.pipe(v.number(), v.safeInteger())]);

/** Only a request the SDK would take as it is gets answered early; anything else waits for the SDK's own answer. */
const InitializeSchema = v.object({
  jsonrpc: v.literal('2.0'),
  id: RequestIdSchema,
  method: v.literal('initialize'),
  params: v.object({
    protocolVersion: v.string(),
    capabilities: v.looseObject({}),
    clientInfo: v.looseObject({ name: v.string(), version: v.string() }),
  }),
});

export type RequestId = v.InferOutput<typeof RequestIdSchema>;

/** The reply line to `line` when it is an initialize request, else null; `clientName` is the host's clientInfo.name. */
export function answerInitialize(line: string): { id: RequestId; reply: string; clientName: string } | null {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null; // the transport answers it with a parse error once it runs
  }
  const request = v.safeParse(InitializeSchema, json);
  if (!request.success) return null;
  const requested = request.output.params.protocolVersion;
  const protocolVersion = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : SUPPORTED_PROTOCOL_VERSIONS[0];
  const result = { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO };
  return { id: request.output.id, reply: JSON.stringify({ jsonrpc: '2.0', id: request.output.id, result }) + '\n', clientName: request.output.params.clientInfo.name };
}

/** A transport that drops the Server's reply to the initialize request answered early. */
export class PreAnsweredTransport implements Transport {
  private answered: RequestId | null;

  constructor(
    private readonly inner: Transport,
    answered: RequestId | null,
  ) {
    this.answered = answered;
  }

  get onmessage() {
    return this.inner.onmessage;
  }
  set onmessage(handler) {
    this.inner.onmessage = handler;
  }
  get onclose() {
    return this.inner.onclose;
  }
  set onclose(handler) {
    this.inner.onclose = handler;
  }
  get onerror() {
    return this.inner.onerror;
  }
  set onerror(handler) {
    this.inner.onerror = handler;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.answered !== null && !('method' in message) && 'id' in message && message.id === this.answered) {
      this.answered = null;
      return Promise.resolve();
    }
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
