/**
 * The JSON-RPC 2.0 envelope of an MCP message, as the SDK's
 * JSONRPCMessageSchema defines it (a request, a notification, a result or an
 * error), checked with valibot at patterm's socket. The SDK validates each
 * request's params again against its method's schema; this check only decides
 * whether a line is a JSON-RPC message at all, and the parsed JSON goes on as
 * it is, not as the copy a parse builds, so a check allocates far less than
 * the SDK's zod schema it replaces (figures: docs/perf-notes.md).
 */
import * as v from 'valibot';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const JSONRPC = v.literal('2.0');
/** Safe integers only, as zod 4's int() (which the SDK uses) demands: 2^60 is not a usable id. */
const IntegerSchema = v.pipe(v.number(), v.safeInteger());
export const RequestIdSchema = v.union([v.string(), IntegerSchema]);
/** params and result are open objects, never arrays; what is inside them is the SDK's to check, per method. */
const OpenObject = v.custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), 'must be an object');

const RequestSchema = v.strictObject({ jsonrpc: JSONRPC, id: RequestIdSchema, method: v.string(), params: v.optional(OpenObject) });
const NotificationSchema = v.strictObject({ jsonrpc: JSONRPC, method: v.string(), params: v.optional(OpenObject) });
const ResultSchema = v.strictObject({ jsonrpc: JSONRPC, id: RequestIdSchema, result: OpenObject });
const ErrorSchema = v.strictObject({
  jsonrpc: JSONRPC,
  id: v.optional(RequestIdSchema),
  error: v.object({ code: IntegerSchema, message: v.string(), data: v.optional(v.unknown()) }),
});

export const JsonRpcMessageSchema = v.union([RequestSchema, NotificationSchema, ResultSchema, ErrorSchema]);

export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  return v.is(JsonRpcMessageSchema, value);
}
