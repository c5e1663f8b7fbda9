import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeLine, readFirstLine } from '../../../../src/main/mcp/transport/handshake.js';
import { runProxy } from '../helpers/raw-proxy.js';

/**
 * A stand-in for patterm that welcomes the proxy, answers some requests the
 * ways patterm and other servers write answers, then dies in the middle of
 * writing one: a reply cut off mid-line, then the connection closes.
 */
function dyingServer(path: string) {
  const server = createServer((socket: Socket) => {
    void (async () => {
      const { rest } = await readFirstLine(socket, 5000);
      socket.write(encodeLine({ patterm: 'welcome', pane: 'p1', role: 'orchestrator' }));
      let buffered = rest.toString();
      const onLine = (line: string) => {
        const request = JSON.parse(line) as { id?: unknown };
        // Key orders as the MCP SDK writes them (id last) and as others may (id first).
        if (request.id === 1) socket.write(`{"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"fake","version":"1"}},"jsonrpc":"2.0","id":1}\n`);
        if (request.id === 'a"b') socket.write(`{"jsonrpc":"2.0","id":"a\\"b","result":{"tools":[]}}\n`);
        if (request.id === 7) socket.write(`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no such method"}}\n`);
        if (request.id === 'three') {
          socket.write('{"result":{"content":[{"type":"text","text":"half an answ');
          socket.destroy();
        }
      };
      socket.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
          onLine(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
        }
      });
      socket.resume();
    })();
  });
  return new Promise<typeof server>((resolve) => server.listen(path, () => resolve(server)));
}

test('when patterm dies mid-call, the proxy answers every unanswered request with an error, says so, and exits 1', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-proxy-gone-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const path = join(root, 'patterm.sock');
  const server = await dyingServer(path);
  t.after(() => server.close());

  const proxy = runProxy(['--socket', path, '--identity', 'x'.repeat(32)]);
  const call = (id: unknown, name: string) => JSON.stringify({ method: 'tools/call', params: { name, arguments: {} }, jsonrpc: '2.0', id });
  proxy.send(JSON.stringify({ method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }, jsonrpc: '2.0', id: 1 }));
  await proxy.nextLine();
  proxy.send(JSON.stringify({ jsonrpc: '2.0', id: 'a"b', method: 'tools/list' }));
  proxy.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such' }));
  proxy.send(call(4, 'wait_for_pattern'));
  proxy.send(JSON.stringify({ method: 'notifications/cancelled', params: { requestId: 4, reason: 'user pressed Esc' }, jsonrpc: '2.0' }));
  proxy.send(call(2, 'read_output'));
  // Written after "2", so the server only dies once every request has reached it.
  proxy.send(JSON.stringify({ jsonrpc: '2.0', id: 'three', method: 'tools/call', params: { name: 'list_children' } }));

  assert.equal(await proxy.exited, 1, proxy.stderrText());
  const lines = proxy.stdoutText().split('\n');
  assert.equal(lines.pop(), '', 'stdout ends with a whole line');
  const cutOff = lines.findIndex((line) => line.includes('half an answ'));
  assert.ok(cutOff !== -1, 'the cut-off reply was forwarded as patterm sent it');
  const errors = lines.slice(cutOff + 1).map((line) => JSON.parse(line) as { jsonrpc: string; id: unknown; error: { code: number; message: string } });
  assert.deepEqual(errors.map((error) => error.id).sort(), [2, 'three'], 'exactly the requests left unanswered: not the answered, not the cancelled');
  for (const error of errors) {
    assert.equal(error.jsonrpc, '2.0');
    assert.equal(error.error.code, -32000);
    assert.match(error.error.message, /^patterm closed the connection before answering this request/);
  }
  assert.match(proxy.stderrText(), /patterm mcp-stdio: patterm closed the connection; answered 2 unanswered requests with an error/);
});
