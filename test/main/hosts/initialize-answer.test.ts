/**
 * `patterm mcp` answers `initialize` before the SDK has loaded: the answer must
 * be the one the SDK's Server gives, for every protocol version a host may ask
 * for, and the Server's own answer must then not reach the host a second time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerInitialize, PreAnsweredTransport, SUPPORTED_PROTOCOL_VERSIONS } from '../../../src/main/hosts/initialize-answer.js';
import { SERVER_CAPABILITIES, SERVER_INFO } from '../../../src/main/mcp/transport/server-info.js';

test('the protocol versions are the SDK\'s', () => {
  assert.deepEqual([...SUPPORTED_PROTOCOL_VERSIONS], SDK_VERSIONS);
});

test('the early answer is the one the SDK Server gives, for each version asked for', async () => {
  for (const version of [...SDK_VERSIONS, '2099-01-01', 'nonsense']) {
    const request = { jsonrpc: '2.0' as const, id: 7, method: 'initialize', params: { protocolVersion: version, capabilities: { roots: {} }, clientInfo: { name: 'host', version: '1' } } };
    const early = answerInitialize(JSON.stringify(request));
    assert.ok(early, version);
    assert.equal(early.clientName, 'host');
    const [client, server] = InMemoryTransport.createLinkedPair();
    const sdk = new Server(SERVER_INFO, { capabilities: SERVER_CAPABILITIES });
    await sdk.connect(server);
    const answered = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve));
    await client.start();
    await client.send(request as JSONRPCMessage);
    assert.deepEqual(JSON.parse(early.reply), await answered, version);
    await sdk.close();
  }
});

test('only a well-formed initialize request is answered early', () => {
  const valid = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } } };
  assert.ok(answerInitialize(JSON.stringify(valid)));
  for (const bad of [
    'not json',
    JSON.stringify({ ...valid, method: 'tools/list' }),
    JSON.stringify({ ...valid, id: 1.5 }),
    JSON.stringify({ ...valid, params: { protocolVersion: '2025-06-18', capabilities: {} } }),
    JSON.stringify({ ...valid, params: { ...valid.params, clientInfo: { name: 3, version: '1' } } }),
  ]) {
    assert.equal(answerInitialize(bad), null, bad);
  }
});

test('the Server\'s own answer to the early-answered request is dropped, and only that one', async () => {
  const sent: JSONRPCMessage[] = [];
  const inner = { start: async () => undefined, close: async () => undefined, send: async (message: JSONRPCMessage) => void sent.push(message) };
  const transport = new PreAnsweredTransport(inner, 7);
  await transport.send({ jsonrpc: '2.0', id: 7, result: {} });
  await transport.send({ jsonrpc: '2.0', id: 7, result: { again: true } });
  await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: {} } as JSONRPCMessage);
  assert.deepEqual(sent, [{ jsonrpc: '2.0', id: 7, result: { again: true } }, { jsonrpc: '2.0', method: 'notifications/progress', params: {} }]);
});
