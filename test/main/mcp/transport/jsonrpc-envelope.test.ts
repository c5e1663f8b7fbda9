/**
 * patterm's valibot check of the JSON-RPC envelope must accept and refuse
 * exactly what the SDK's own JSONRPCMessageSchema does: it stands in for it at
 * the socket, and the SDK trusts what the transport hands on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { isJsonRpcMessage } from '../../../../src/main/mcp/transport/jsonrpc-envelope.js';

const CASES: [string, unknown][] = [
  ['a tools/call request', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_output', arguments: { child_id: 'a' } } }],
  ['a request with a string id and _meta', { jsonrpc: '2.0', id: 'x-1', method: 'tools/list', params: { _meta: { progressToken: 1 } } }],
  ['a request without params', { jsonrpc: '2.0', id: 0, method: 'ping' }],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a notification with params', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'gave up' } }],
  ['a result', { jsonrpc: '2.0', id: 4, result: { content: [] } }],
  ['an empty result', { jsonrpc: '2.0', id: 4, result: {} }],
  ['an error', { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'no such method' } }],
  ['an error with data and no id', { jsonrpc: '2.0', error: { code: -32700, message: 'parse error', data: { at: 3 } } }],
  ['JSON-RPC 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }],
  ['no version', { id: 1, method: 'ping' }],
  ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }],
  ['an id past the safe integers', { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' }],
  ['a null id on a request', { jsonrpc: '2.0', id: null, method: 'ping' }],
  ['a numeric method', { jsonrpc: '2.0', id: 1, method: 7 }],
  ['an unknown top-level key', { jsonrpc: '2.0', id: 1, method: 'ping', extra: true }],
  ['params as an array', { jsonrpc: '2.0', id: 1, method: 'ping', params: [1, 2] }],
  ['params as null', { jsonrpc: '2.0', id: 1, method: 'ping', params: null }],
  ['a result that is not an object', { jsonrpc: '2.0', id: 1, result: 'done' }],
  ['a result that is an array', { jsonrpc: '2.0', id: 1, result: [] }],
  ['a result and an error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } }],
  ['an error code that is not an integer', { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } }],
  ['an error without a message', { jsonrpc: '2.0', id: 1, error: { code: 1 } }],
  ['a response without an id', { jsonrpc: '2.0', result: {} }],
  ['an array (a batch)', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
  ['a string', 'ping'],
  ['null', null],
];

test('the envelope check agrees with the SDK on every kind of message and every way one can be wrong', () => {
  for (const [what, message] of CASES) {
    assert.equal(isJsonRpcMessage(message), JSONRPCMessageSchema.safeParse(message).success, what);
  }
  assert.equal(CASES.filter(([, message]) => isJsonRpcMessage(message)).length, 9, 'the nine valid cases pass');
});

test('a message that passes is handed on as it is, not copied', () => {
  const message = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'kill', arguments: { child_id: 'c' } } };
  const before = JSON.stringify(message);
  assert.equal(isJsonRpcMessage(message), true);
  assert.equal(JSON.stringify(message), before, 'the check does not change what it checks');
});
