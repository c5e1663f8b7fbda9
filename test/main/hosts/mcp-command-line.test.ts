/**
 * What `patterm mcp` does with bad input: a command line it cannot use (a
 * usage error on stderr naming the flag and the value, exit 2, nothing on
 * stdout) and a host that sends garbage before `initialize` (JSON-RPC errors,
 * and the session carries on).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATTERM_BIN } from '../mcp/helpers/mcp-harness.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const root = scratchDir('patterm-mcp-cli-');
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: root,
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_DATA_HOME: join(root, 'data'),
  XDG_STATE_HOME: join(root, 'state'),
  XDG_CACHE_HOME: join(root, 'cache'),
  XDG_RUNTIME_DIR: join(root, 'runtime'),
};
mkdirSync(env.XDG_RUNTIME_DIR, { mode: 0o700 });

function mcp(args: string[]) {
  return spawnSync(process.execPath, [PATTERM_BIN, 'mcp', ...args], { env, encoding: 'utf8', input: '', timeout: 30_000 });
}

test('--project without a value, a missing directory, a file or an unknown flag: exit 2, the flag and value named, stdout untouched', () => {
  const file = join(root, 'a-file');
  writeFileSync(file, 'not a directory');
  const cases: [string[], RegExp][] = [
    [['--project'], /^patterm: --project needs a value\n/],
    [['--project='], /^patterm: --project needs a value\n/],
    [['--project', join(root, 'nowhere')], new RegExp(`^patterm: mcp: --project "${join(root, 'nowhere')}": no such directory\\n`)],
    [['--project', file], new RegExp(`^patterm: mcp: --project "${file}": is not a directory\\n`)],
    [['--projct', root], /^patterm: unknown argument "--projct"; expected one of --project\n/],
  ];
  for (const [args, message] of cases) {
    const run = mcp(args);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.match(run.stderr, /patterm mcp \[--project <dir>\]/, 'the usage follows');
    assert.equal(run.stdout, '', 'stdout belongs to the host');
  }
});

test('garbage before initialize gets JSON-RPC errors; the host then initializes and works as usual', async () => {
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  const child = spawn('setsid', [process.execPath, PATTERM_BIN, 'mcp', '--project', project], { env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const replies = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } });
  const reply = async (id: unknown) => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const found = replies().find((message) => message.id === id);
      if (found) return found;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no reply with id ${JSON.stringify(id)}; stdout: ${stdout}; stderr: ${stderr}`);
  };
  const send = (line: string) => child.stdin.write(line + '\n');

  send('this is not json');
  send('{"not":"json-rpc"}');
  send(JSON.stringify({ jsonrpc: '2.0', id: 'bad-init', method: 'initialize', params: { protocolVersion: '2025-06-18' } }));
  send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'garbage-test', version: '0' } } }));
  const init = await reply(1);
  assert.equal(init.result?.protocolVersion, '2025-11-25', 'an unknown version gets the newest patterm speaks');
  assert.deepEqual(init.result?.serverInfo, { name: 'patterm', version: (init.result?.serverInfo as { version: string }).version });
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  const list = await reply(2);
  assert.ok((list.result?.tools as unknown[]).length > 10);

  const errors = replies().filter((message) => message.error);
  assert.ok(errors.some((message) => message.error!.code === -32700 && /it began "this is not json"/.test(message.error!.message)), JSON.stringify(errors));
  assert.ok(errors.some((message) => message.error!.code === -32600 && /not a JSON-RPC 2\.0 message/.test(message.error!.message)), JSON.stringify(errors));
  const badInit = await reply('bad-init');
  // The SDK's Server judges a malformed initialize itself, naming what is missing.
  assert.match(badInit.error?.message ?? '', /clientInfo/, JSON.stringify(badInit));
  assert.equal(replies().filter((message) => message.id === 1).length, 1, 'initialize is answered once');

  child.stdin.end();
  assert.equal(await exited, 0, stderr);
  assert.equal(stderr, '');
});
