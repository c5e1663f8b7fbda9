import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startRelayFloor } from '../../../bench/harness/mcp-relay-floor.js';
import { readFirstLine } from '../../../src/main/mcp/transport/handshake.js';
import { InputActivity } from '../../../src/shared/input-activity.js';

const PATTERM_BIN = fileURLToPath(new URL('../../../../bin/patterm', import.meta.url));
const TOKEN = 'relay-floor-test-token';

test('the relay floor answers an SDK client through the real mcp-stdio proxy with a reply of the asked size, and counts each call as input', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-relay-floor-'));
  const activity = new InputActivity();
  const floor = await startRelayFloor(join(dir, 'floor.sock'), activity);
  t.after(async () => {
    await floor.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const client = new Client({ name: 'relay-floor-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [PATTERM_BIN, 'mcp-stdio', '--socket', join(dir, 'floor.sock'), '--identity', TOKEN], stderr: 'inherit' }));
  t.after(() => client.close());

  const before = activity.sinceLastInput();
  const result = await client.callTool({ name: 'read_output', arguments: { reply_chars: 3000 } });
  const content = result.content as { type: string; text: string }[];
  assert.equal(content[0].type, 'text');
  assert.equal(content[0].text.length, 3000);
  assert.equal(before, Infinity, 'the handshake and initialize are not input');
  assert.ok(activity.sinceLastInput() < 5_000, 'the call was marked as input, as a patterm tool call is');
});

test('the relay floor refuses a connection that does not start with a patterm hello', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-relay-floor-'));
  const floor = await startRelayFloor(join(dir, 'floor.sock'), new InputActivity());
  t.after(async () => {
    await floor.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const socket = connect(join(dir, 'floor.sock'));
  t.after(() => socket.destroy());
  socket.write('{"jsonrpc":"2.0","id":1,"method":"initialize"}\n');
  const { line } = await readFirstLine(socket, 5_000);
  assert.deepEqual(JSON.parse(line), { patterm: 'refused', error: 'the relay floor expects a patterm hello' });
});
