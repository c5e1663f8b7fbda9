/**
 * MCP transport over one accepted unix-socket connection (or over a headless
 * patterm's stdin and stdout, joined into one stream): newline-delimited
 * JSON-RPC, as in MCP's stdio transport, but hardened for a server that must
 * never fall over. A line that is not JSON, not JSON-RPC, or too large gets a
 * JSON-RPC error reply naming the problem, and the connection carries on.
 */
import type { Duplex } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJsonRpcMessage } from './jsonrpc-envelope.js';
import { requestProblem } from './request-precheck.js';
import { absoluteNow, RequestTimer } from './request-timing.js';
import { LineSplitter, MAX_MESSAGE_BYTES, type Line } from './line-splitter.js';
import { ignoreError, logIgnored } from '../../../node/patterm-log.js';

/** JSON-RPC 2.0 error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

type RequestId = string | number;

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly lines: LineSplitter;
  private closed = false;
  private readonly timer = new RequestTimer();
  /** When the chunk holding the current line arrived: a request's time in patterm starts there. */
  private chunkArrivedAt = 0;

  constructor(
    private readonly socket: Duplex,
    private readonly initial: Buffer = Buffer.alloc(0),
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {
    this.lines = new LineSplitter((line) => this.onLine(line), maxMessageBytes);
  }

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('close', () => this.finish());
    this.socket.on('error', (error) => this.onerror?.(error));
    if (this.initial.length > 0) this.onData(this.initial);
    this.socket.resume();
  }

  private onData(chunk: Buffer): void {
    if (this.timer.enabled) this.chunkArrivedAt = absoluteNow();
    this.lines.push(chunk);
  }

  private onLine(line: Line): void {
    const whole = line.whole();
    if (!whole) {
      const id = findRequestId(line.tail.toString('utf8')) ?? findRequestId(line.head.toString('utf8'));
      this.reject(id, INVALID_REQUEST, `message is ${line.bytes} bytes or more; the limit is ${this.maxMessageBytes} bytes. Send less at once (for example, split a large scratchpad write into appends).`);
      return;
    }
    const text = whole.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    this.handleLine(text);
  }

  private handleLine(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      this.reject(null, PARSE_ERROR, `Parse error: the message is not valid JSON (${(error as Error).message}); it began ${JSON.stringify(line.slice(0, 80))}`);
      return;
    }
    if (!isJsonRpcMessage(json)) {
      this.reject(idOf(json), INVALID_REQUEST, `Invalid Request: not a JSON-RPC 2.0 message (expected "jsonrpc": "2.0" with a method, or a result or error); received ${JSON.stringify(line.slice(0, 120))}`);
      return;
    }
    const problem = requestProblem(json);
    if (problem) {
      this.reject(idOf(json), INVALID_PARAMS, problem);
      return;
    }
    if ('method' in json && 'id' in json) this.timer.received(json.id, json.method, this.chunkArrivedAt);
    try {
      this.onmessage?.(json);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reject(id: RequestId | null, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch(ignoreError(`answering request ${JSON.stringify(id)} with error ${code}`));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.socket.destroyed) return Promise.reject(new Error('the MCP connection is closed'));
    const line = JSON.stringify(message) + '\n';
    const repliesTo = 'method' in message ? null : (message as { id?: RequestId | null }).id;
    if (repliesTo !== undefined && repliesTo !== null) this.timer.replied(repliesTo);
    return new Promise((resolve, reject) => {
      this.socket.write(line, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.timer.clear();
    this.onclose?.();
  }
}

function idOf(json: unknown): RequestId | null {
  if (json && typeof json === 'object' && 'id' in json) {
    const id = (json as { id: unknown }).id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  }
  return null;
}

/** Best effort: the last `"id": <number or string>` in a fragment of JSON. */
function findRequestId(fragment: string): RequestId | null {
  const matches = [...fragment.matchAll(/"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/g)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return null;
  try {
    return JSON.parse(last) as RequestId;
  } catch (error) {
    logIgnored('reading the id of a message too large to parse', error);
    return null;
  }
}
