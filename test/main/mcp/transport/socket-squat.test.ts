import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server } from 'node:net';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startMcpServer } from '../../../../src/main/mcp/index.js';
import { claimSocketPath, SOCKET_PATH_VAR } from '../../../../src/main/mcp/transport/socket-path.js';
import { startHarness } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const squatters: Server[] = [];
after(() => {
  for (const squatter of squatters) squatter.close();
});

/** Another user's process listening first at `path`, to keep patterm from starting. */
async function squat(path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const squatter = createServer(() => undefined);
  squatters.push(squatter);
  await new Promise<void>((resolve, reject) => squatter.once('error', reject).listen(path, resolve));
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function startWithEnv(env: Record<string, string | undefined>) {
  const saved = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, [SOCKET_PATH_VAR]: process.env[SOCKET_PATH_VAR] };
  Object.assign(process.env, env);
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  try {
    return await startMcpServer({ coordinator: harness.coordinator, projectDir: harness.projectDir, dataHome: harness.dataHome, launcher: harness.launcher });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test('without XDG_RUNTIME_DIR, a squatter on the old /tmp/patterm-<pid>.sock does not stop patterm: its socket is in a private mkdtemp directory', async () => {
  await squat(`/tmp/patterm-${process.pid}.sock`);
  const server = await startWithEnv({ XDG_RUNTIME_DIR: undefined, [SOCKET_PATH_VAR]: undefined });
  const dir = dirname(server.socketPath);
  assert.notEqual(server.socketPath, `/tmp/patterm-${process.pid}.sock`);
  assert.equal(dirname(dir), tmpdir());
  assert.match(dir, /\/patterm-[A-Za-z0-9]{6}$/, 'an unpredictable name');
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(server.socketPath).mode & 0o777, 0o600);
  assert.ok(await answers(server.socketPath), 'patterm listens there');
  await server.dispose();
  assert.equal(existsSync(dir), false, 'the private directory is removed with the socket');
});

test('a squatter on $XDG_RUNTIME_DIR/patterm/<pid>.sock does not stop patterm either', async () => {
  const runtime = join(harness.root, 'xdg-runtime');
  await squat(join(runtime, 'patterm', `${process.pid}.sock`));
  const server = await startWithEnv({ XDG_RUNTIME_DIR: runtime, [SOCKET_PATH_VAR]: undefined });
  assert.equal(dirname(dirname(server.socketPath)), tmpdir());
  assert.ok(await answers(server.socketPath));
  await server.dispose();
});

test('PATTERM_SOCKET picks the path; when something serves there, the error names the variable and the path', async () => {
  const chosen = join(harness.root, 'chosen', 'mcp.sock');
  const server = await startWithEnv({ [SOCKET_PATH_VAR]: chosen });
  assert.equal(server.socketPath, chosen);
  assert.equal(statSync(dirname(chosen)).mode & 0o777, 0o700);
  await assert.rejects(startWithEnv({ [SOCKET_PATH_VAR]: chosen }), new RegExp(`^Error: ${SOCKET_PATH_VAR} ${chosen}: another process is already serving MCP`));
  await server.dispose();
  await assert.rejects(claimSocketPath(undefined, { [SOCKET_PATH_VAR]: 'relative.sock' }), /PATTERM_SOCKET must be an absolute path \(received "relative.sock"\)/);
});
