import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { eventually } from '../../../helpers/coordinator-fixture.js';
import { startMcpServer } from '../../../../src/main/mcp/index.js';
import { startHarness } from '../helpers/mcp-harness.js';

const harness = await startHarness();
/** Short deadlines, so the test does not sit out the 10 s handshake timeout. */
const server = await startMcpServer({
  coordinator: harness.coordinator,
  projectDir: harness.projectDir,
  dataHome: harness.dataHome,
  socketPath: join(harness.root, 'deadlines.sock'),
  launcher: harness.launcher,
  deadlines: { handshakeMs: 300, refusalLingerMs: 300 },
});
const clients: Socket[] = [];
after(async () => {
  for (const client of clients) client.destroy();
  await server.dispose();
});

/** A client that connects and then never reads what patterm sends, nor closes its end. */
async function neverReading(): Promise<Socket> {
  const client = connect(server.socketPath);
  clients.push(client);
  client.pause();
  await new Promise((resolve) => client.once('connect', resolve));
  return client;
}

test('an idle connection that never says hello, never reads and never closes is destroyed after the deadline', async () => {
  await neverReading();
  await eventually(() => server.connectionCount === 1, { message: 'the connection to be accepted' });
  await eventually(() => server.connectionCount === 0, { timeoutMs: 10_000, message: 'patterm to destroy the idle connection' });
});

test('a refused connection that never reads its refusal nor closes is destroyed after the linger', async () => {
  const client = await neverReading();
  client.write('{"patterm":"hello","version":1,"identity":"' + 'z'.repeat(32) + '"}\n');
  await eventually(() => server.connectionCount === 1, { message: 'the connection to be accepted' });
  await eventually(() => server.connectionCount === 0, { timeoutMs: 10_000, message: 'patterm to destroy the refused connection' });
  // What it never read was still sent: the refusal and its reason.
  client.resume();
  const reply = await new Promise<string>((resolve) => client.once('data', (data) => resolve(data.toString())));
  assert.match(reply, /"refused".*unknown identity token/);
});
