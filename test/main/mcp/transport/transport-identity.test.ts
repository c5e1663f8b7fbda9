import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connect } from 'node:net';
import { runtimeSocketPath } from '../../../../src/main/mcp/transport/socket-path.js';
import { startHarness, connectProxy, textOf } from '../helpers/mcp-harness.js';
import { INITIALIZE, INITIALIZED, runProxy } from '../helpers/raw-proxy.js';

const harness = await startHarness();

test('the socket path follows XDG_RUNTIME_DIR when it is absolute', () => {
  assert.equal(runtimeSocketPath({ XDG_RUNTIME_DIR: '/run/user/1000' }, 4242), '/run/user/1000/patterm/4242.sock');
  assert.equal(runtimeSocketPath({}, 4242), null);
  assert.equal(runtimeSocketPath({ XDG_RUNTIME_DIR: 'relative/dir' }, 4242), null);
});

test('the socket is 0600 in a 0700 directory', () => {
  assert.equal(statSync(harness.mcp.socketPath).mode & 0o777, 0o600);
  assert.ok(statSync(harness.mcp.socketPath).isSocket());
  assert.equal(statSync(dirname(harness.mcp.socketPath)).mode & 0o777, 0o700);
});

test('proxyCommand runs this checkout\'s patterm mcp-stdio with the socket and token', () => {
  const argv = harness.mcp.proxyCommand('TOKEN');
  assert.equal(argv[0], process.execPath);
  assert.ok(existsSync(argv[1]), `${argv[1]} exists`);
  assert.deepEqual(argv.slice(2), ['mcp-stdio', '--socket', harness.mcp.socketPath, '--identity', 'TOKEN']);
});

test('a stale socket file or leftover file never blocks start-up, and the socket is removed on dispose', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-stale-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const { startMcpServer } = await import('../../../../src/main/mcp/index.js');
  // A real stale socket: a process bound it and died without unlinking it.
  const stale = join(root, 'stale.sock');
  const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.stdout.write('up\\n'))`]);
  await new Promise((resolve) => holder.stdout.once('data', resolve));
  holder.kill('SIGKILL');
  await new Promise((resolve) => holder.once('exit', resolve));
  assert.ok(statSync(stale).isSocket(), 'the dead process left its socket file behind');
  const leftover = join(root, 'leftover.sock');
  writeFileSync(leftover, 'not a socket');
  for (const socketPath of [stale, leftover]) {
    const server = await startMcpServer({ coordinator: harness.coordinator, projectDir: harness.projectDir, dataHome: harness.dataHome, socketPath, launcher: harness.launcher });
    assert.ok(statSync(socketPath).isSocket());
    await server.dispose();
    assert.equal(existsSync(socketPath), false, `${socketPath} removed on dispose`);
  }
});

test('a live socket at the path is not stolen', async () => {
  const { startMcpServer } = await import('../../../../src/main/mcp/index.js');
  await assert.rejects(
    startMcpServer({ coordinator: harness.coordinator, projectDir: harness.projectDir, dataHome: harness.dataHome, socketPath: harness.mcp.socketPath, launcher: harness.launcher }),
    /another process is already serving MCP/,
  );
  assert.ok(statSync(harness.mcp.socketPath).isSocket(), 'the running server keeps its socket');
});

test('an unknown token is refused with a clear error on the proxy\'s stderr', async () => {
  const proxy = runProxy(['--socket', harness.mcp.socketPath, '--identity', 'x'.repeat(32)]);
  assert.equal(await proxy.exited, 1);
  assert.match(proxy.stderrText(), /patterm mcp-stdio: patterm refused this connection: unknown identity token/);
  assert.equal(proxy.stdoutText(), '', 'nothing but protocol on stdout');
});

test('a malformed token is refused, naming the problem', async () => {
  const proxy = runProxy(['--socket', harness.mcp.socketPath, '--identity', 'not a token!']);
  assert.equal(await proxy.exited, 1);
  assert.match(proxy.stderrText(), /bad handshake: identity: identity token "not a token!" is not in the form/);
});

test('a missing socket and a dead socket each get their own message', async (t) => {
  const missing = runProxy(['--socket', '/nonexistent/patterm.sock', '--identity', 'x'.repeat(32)]);
  assert.equal(await missing.exited, 1);
  assert.match(missing.stderrText(), /no patterm socket at \/nonexistent\/patterm\.sock; patterm may have exited/);

  const root = mkdtempSync(join(tmpdir(), 'patterm-dead-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dead = join(root, 'dead.sock');
  execFileSync('python3', ['-c', `import socket; s = socket.socket(socket.AF_UNIX); s.bind(${JSON.stringify(dead)})`]);
  const refused = runProxy(['--socket', dead, '--identity', 'x'.repeat(32)]);
  assert.equal(await refused.exited, 1);
  assert.match(refused.stderrText(), /nothing is listening at .*dead\.sock; it is a stale socket/);
});

test('the proxy rejects bad command lines with usage help on stderr', async () => {
  const proxy = runProxy(['--socket', harness.mcp.socketPath]);
  assert.equal(await proxy.exited, 2);
  assert.match(proxy.stderrText(), /mcp-stdio needs --identity <token>/);
  assert.equal(proxy.stdoutText(), '');
});

test('stdout carries only JSON-RPC, and the proxy exits 0 when its client closes stdin', async () => {
  const { token } = await harness.orchestrator();
  const proxy = runProxy(['--socket', harness.mcp.socketPath, '--identity', token]);
  proxy.send(INITIALIZE);
  const init = JSON.parse(await proxy.nextLine());
  assert.equal(init.id, 1);
  assert.equal(init.result.serverInfo.name, 'patterm');
  proxy.send(INITIALIZED);
  proxy.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  const list = JSON.parse(await proxy.nextLine());
  assert.ok(list.result.tools.length > 10);
  proxy.child.stdin.end();
  assert.equal(await proxy.exited, 0);
  for (const line of proxy.stdoutText().split('\n').filter(Boolean)) assert.equal(JSON.parse(line).jsonrpc, '2.0');
});

test('the proxy exits with 1, saying why on stderr, when patterm closes the connection first', async () => {
  const { startMcpServer } = await import('../../../../src/main/mcp/index.js');
  const socketPath = join(harness.root, 'second.sock');
  const server = await startMcpServer({ coordinator: harness.coordinator, projectDir: harness.projectDir, dataHome: harness.dataHome, socketPath, launcher: harness.launcher });
  const { pane } = await harness.orchestrator();
  const token = server.identities.issue();
  server.identities.bind(token, pane.id);
  const proxy = runProxy(['--socket', socketPath, '--identity', token]);
  proxy.send(INITIALIZE);
  await proxy.nextLine();
  await server.dispose();
  assert.equal(await proxy.exited, 1);
  assert.match(proxy.stderrText(), /patterm closed the connection\n/);
});

test('each agent gets its own token; a child token dies with the child and its open connection is closed', async () => {
  const { token } = await harness.orchestrator();
  const orchestrator = await harness.connect(token);
  const spawned = await orchestrator.call('spawn_process', { argv: ['sleep', '60'] });
  const childId = (spawned.structuredContent as { child_id: string }).child_id;
  const childToken = harness.tokenFor(childId);
  assert.notEqual(childToken, token);
  assert.ok(childToken.length >= 32);
  const child = await harness.connect(childToken);
  const closed = new Promise<void>((resolve) => (child.client.onclose = () => resolve()));
  assert.equal((await child.call('list_children')).isError, undefined);

  await orchestrator.call('kill', { child_id: childId });
  await closed;
  const again = runProxy(['--socket', harness.mcp.socketPath, '--identity', childToken]);
  assert.equal(await again.exited, 1);
  assert.match(again.stderrText(), /identity token revoked: its pane "sleep-\d+" has exited/);
  // The orchestrator's own connection is untouched.
  assert.match(textOf(await orchestrator.call('list_children')), new RegExp(`${childId}\\s+sleep-\\d+\\s+process\\s+killed`));
});

test('an agent that connects before its token is bound is let in once the bind happens', async () => {
  const { pane } = await harness.orchestrator();
  const token = harness.mcp.identities.issue();
  const connecting = connectProxy(harness.mcp.socketPath, token);
  // The handshake is waiting on the bind; bind only after the connection is in.
  while (harness.mcp.connectionCount === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  harness.mcp.identities.bind(token, pane.id);
  const connection = await connecting;
  assert.equal((await connection.call('list_children')).isError, undefined);
  await connection.close();
});

test('a bad handshake is refused with its reason, and other connections carry on', async () => {
  const junk = connect(harness.mcp.socketPath);
  await new Promise((resolve) => junk.once('connect', resolve));
  junk.write('{"patterm":"hello","version":99,"identity":"' + 'y'.repeat(32) + '"}\n');
  const reply = await new Promise<string>((resolve) => junk.once('data', (data) => resolve(data.toString())));
  assert.match(reply, /"refused".*handshake version 99 is not supported/);
  const { token } = await harness.orchestrator();
  const connection = await harness.connect(token);
  assert.equal((await connection.call('scratchpad_list')).isError, undefined);
});
