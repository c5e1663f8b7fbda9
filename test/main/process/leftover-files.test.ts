import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/headless-mcp-patterm.js', import.meta.url));
const WATCHDOG = new URL('../../../src/main/process/orphan-watchdog.js', import.meta.url).href;
const LEFTOVERS = new URL('../../../src/main/process/leftover-paths.js', import.meta.url).href;

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function scratch(): string {
  const root = mkdtempSync(join(tmpdir(), 'patterm-leftovers-'));
  roots.push(root);
  return root;
}


test('SIGKILL of patterm leaves neither its MCP socket nor an agent\'s token file behind, and nothing else is touched', async () => {
  const root = scratch();
  // The agent's config directory is made under TMPDIR: keep it inside this test's scratch.
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const notOurs = join(tmp, 'patterm-mcp-not-ours');
  mkdirSync(notOurs);
  const { child, line } = await startWithFirstLine([FIXTURE, root], { ...process.env, TMPDIR: tmp });
  const { socketPath, configFile } = JSON.parse(line) as { socketPath: string; configFile: string };
  const tokenDir = dirname(configFile);
  assert.ok(existsSync(socketPath), 'patterm is serving MCP');
  assert.equal(dirname(tokenDir), tmp, 'the agent got its config file from the injection, under TMPDIR');
  assert.ok(existsSync(configFile));
  const neighbour = join(dirname(socketPath), 'neighbour');
  writeFileSync(neighbour, 'not patterm\'s');

  child.kill('SIGKILL');
  await eventually(() => !existsSync(socketPath) && !existsSync(tokenDir), { timeoutMs: 10_000, message: 'the watchdog to remove the socket and the token directory' });
  assert.ok(existsSync(notOurs), 'a look-alike directory patterm never made survives');
  assert.ok(existsSync(neighbour), 'the socket\'s neighbour survives');
});

test('the watchdog removes exactly the registered paths, whatever characters they hold', async () => {
  const root = scratch();
  const made = (name: string, kind: 'dir' | 'file') => {
    const path = join(root, name);
    if (kind === 'dir') mkdirSync(path);
    else writeFileSync(path, '');
    return path;
  };
  const globby = made('a b*[?]\\ -x', 'dir');
  writeFileSync(join(globby, 'patterm.json'), '{}');
  const matchesTheGlob = made('a bc?', 'dir');
  const socket = made('sock', 'file');
  const dirAsFile = made('dir-as-file', 'dir');
  const forgotten = made('removed-by-patterm', 'dir');
  const victim = made('victim', 'dir');
  made('x', 'dir'); // so that x/../victim would reach victim
  const sentinel = made('last', 'dir');
  const script = `
    const { startOrphanWatchdog } = await import(${JSON.stringify(WATCHDOG)});
    const { removeAfterDeath } = await import(${JSON.stringify(LEFTOVERS)});
    startOrphanWatchdog('leftover-test-' + process.pid);
    const [globby, socket, dirAsFile, forgotten, victim, root, sentinel] = process.argv.slice(1);
    removeAfterDeath(globby, 'tree');
    removeAfterDeath(socket, 'file');
    removeAfterDeath(dirAsFile, 'file');
    removeAfterDeath(forgotten, 'tree')();
    // Would register victim as a second line if newlines went through.
    removeAfterDeath(root + '/missing\\n+r' + victim, 'tree');
    removeAfterDeath(root + '/x/../victim', 'tree');
    removeAfterDeath(sentinel, 'tree');
    process.stdout.write('ready\\n');
    setInterval(() => undefined, 1000);
  `;
  const { child } = await startWithFirstLine(['--input-type=module', '-e', script, globby, socket, dirAsFile, forgotten, victim, root, sentinel]);
  child.kill('SIGKILL');
  // The watchdog removes in registration order: once the last entry is gone, it has decided on every other.
  await eventually(() => !existsSync(sentinel), { timeoutMs: 10_000, message: 'the watchdog to remove the last registered path' });
  assert.equal(existsSync(globby), false, 'a path with spaces, glob characters, a backslash and a dash is removed');
  assert.equal(existsSync(socket), false, 'a registered file is removed');
  assert.ok(existsSync(matchesTheGlob), 'the registered path is not used as a glob');
  assert.ok(existsSync(dirAsFile), 'a directory registered as one file is not removed');
  assert.ok(existsSync(forgotten), 'a path patterm took back is not removed');
  assert.ok(existsSync(victim), 'neither a newline nor .. can smuggle in another path');
});
