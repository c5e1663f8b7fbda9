/**
 * Checks the shape of a tools/call request before the SDK sees it. The SDK
 * answers a malformed one with an "internal error" carrying a raw zod dump;
 * this answers with "invalid params" and a sentence naming the field.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Returns why the request's params are unacceptable, or null to let it through. */
export function requestProblem(message: JSONRPCMessage): string | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = (message as { params?: unknown }).params;
  if (!isObject(params)) return `Invalid params: tools/call needs params {"name": <tool>, "arguments": {...}}; received ${describe(params)}`;
  if (typeof params.name !== 'string') return `Invalid params: params.name must be the tool name as a string; received ${describe(params.name)}`;
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    return `Invalid params: params.arguments must be an object of named arguments; received ${describe(params.arguments)}`;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return `${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`} (${json.length > 60 ? json.slice(0, 60) + '…' : json})`;
}
