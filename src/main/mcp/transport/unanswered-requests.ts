/**
 * The requests an agent sent through the stdio proxy that patterm has not
 * answered yet, so that if patterm goes away mid-call the proxy can answer each
 * with an error instead of leaving the agent CLI waiting for ever.
 *
 * Kept cheap because every message passes by: the SDK writes a request as
 * {"method":…,"jsonrpc":"2.0","id":…} and a result as {"result":…,"jsonrpc":"2.0","id":…},
 * so the id is read from the last bytes of the line (a tool result can be
 * megabytes); anything else (errors, notifications, other key orders) is
 * small or rare, and is parsed whole.
 */
import * as v from 'valibot';
import { RequestIdSchema } from './jsonrpc-envelope.js';
import type { Line } from './line-splitter.js';
import { logIgnored } from '../../../node/patterm-log.js';

type RequestId = v.InferOutput<typeof RequestIdSchema>;

/** JSON-RPC's implementation-defined server error range; the MCP SDK's ErrorCode.ConnectionClosed. */
export const CONNECTION_CLOSED = -32000;

/**
 * `,"id":<value>}` ending a line: the last `}` closes the top-level object, so the
 * value is its id; the comma before an unescaped quote rules out a key inside a string.
 */
const TRAILING_ID = /,"id":(-?\d+|"(?:[^"\\]|\\.)*")\}$/;

const MessageSchema = v.looseObject({
  id: v.optional(RequestIdSchema),
  method: v.optional(v.string()),
  params: v.optional(v.looseObject({ requestId: v.optional(RequestIdSchema) })),
});
type Message = v.InferOutput<typeof MessageSchema>;

/** The key of an id: 1 and "1" are different requests. */
const keyOf = (id: RequestId) => JSON.stringify(id);

export class UnansweredRequests {
  private readonly pending = new Map<string, RequestId>();

  get size(): number {
    return this.pending.size;
  }

  /** A line the agent sent to patterm. */
  sent(line: Line): void {
    const id = line.head.toString('latin1').startsWith('{"method":') ? trailingId(line) : undefined;
    if (id !== undefined) {
      this.pending.set(keyOf(id), id);
      return;
    }
    for (const message of messagesIn(line)) {
      if (message.method === undefined) continue;
      if (message.id !== undefined) this.pending.set(keyOf(message.id), message.id);
      // A cancelled request gets no answer (MCP cancellation): it is not waiting any more.
      else if (message.method === 'notifications/cancelled' && message.params?.requestId !== undefined) this.pending.delete(keyOf(message.params.requestId));
    }
  }

  /** A line patterm sent to the agent. */
  received(line: Line): void {
    const id = line.head.toString('latin1').startsWith('{"result":') ? trailingId(line) : undefined;
    if (id !== undefined) {
      this.pending.delete(keyOf(id));
      return;
    }
    for (const message of messagesIn(line)) if (message.method === undefined && message.id !== undefined) this.pending.delete(keyOf(message.id));
  }

  /** One JSON-RPC error response per unanswered request, each on its own line; forgets them. */
  answerAll(message: string): string {
    let lines = '';
    for (const id of this.pending.values()) lines += JSON.stringify({ jsonrpc: '2.0', id, error: { code: CONNECTION_CLOSED, message } }) + '\n';
    this.pending.clear();
    return lines;
  }
}

function trailingId(line: Line): RequestId | undefined {
  const match = TRAILING_ID.exec(line.tail.toString('utf8'));
  if (!match) return undefined;
  try {
    const id = v.safeParse(RequestIdSchema, JSON.parse(match[1]));
    return id.success ? id.output : undefined;
  } catch (error) {
    logIgnored('reading a request id from a partial message', error);
    return undefined;
  }
}

/** The JSON-RPC messages a line holds (a batch is an array); none if it is not JSON or too long to have been kept. */
function messagesIn(line: Line): Message[] {
  const bytes = line.whole();
  if (!bytes) return [];
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    logIgnored('parsing a message to find its unanswered requests', error);
    return [];
  }
  const messages: Message[] = [];
  for (const item of Array.isArray(json) ? json : [json]) {
    const parsed = v.safeParse(MessageSchema, item);
    if (parsed.success) messages.push(parsed.output);
  }
  return messages;
}
