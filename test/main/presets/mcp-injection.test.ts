import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildInjection, deepMerge } from '../../../src/main/presets/mcp-injection.js';
import { bundledPresetDirs } from '../../../src/main/presets/preset-paths.js';
import { loadPresetDir } from '../../../src/main/presets/preset-loader.js';
import { MAX_TIMEOUT_SECONDS as MAX_WAIT_SECONDS } from '../../../src/main/mcp/tools/wait-for-pattern.js';

const PROXY = ['/usr/bin/node', '/opt/patterm/bin/patterm', 'mcp-stdio', '--socket', '/run/p 1.sock', '--identity', 'tok"en'];
const bundled = (id: string) => loadPresetDir('agent', bundledPresetDirs().agents).presets.find((p) => p.id === id)!.preset;

test('claude: a private MCP config file passed with --mcp-config and --strict-mcp-config', () => {
  const injection = buildInjection(bundled('claude').mcp_injection, PROXY, {});
  const at = injection.args.indexOf('--mcp-config');
  assert.ok(at >= 0, `args: ${injection.args.join(' ')}`);
  assert.ok(injection.args.includes('--strict-mcp-config'));
  const file = injection.args[at + 1];
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { patterm: { type: 'stdio', command: PROXY[0], args: PROXY.slice(1) } } });
  assert.equal(statSync(file).mode & 0o777, 0o600, 'the file holds an identity token');
  injection.cleanup();
  injection.cleanup();
  assert.equal(existsSync(file), false);
});

test('the config files of agents still running are removed when patterm exits, with one exit listener for all', () => {
  // A child process stands in for patterm: it builds twenty injections and exits without any pane's exit reported.
  const script = `
    import { buildInjection } from ${JSON.stringify(new URL('../../../src/main/presets/mcp-injection.js', import.meta.url).href)};
    const files = [];
    const before = process.listenerCount('exit');
    for (let i = 0; i < 20; i++) {
      const injection = buildInjection({ kind: 'config_file_flag', args: ['--mcp-config', '{config_file}'] }, ['proxy', 'token'], {});
      files.push(injection.args[1]);
    }
    buildInjection({ kind: 'config_file_flag', args: ['{config_file}'] }, ['proxy', 'token'], {}).cleanup();
    console.log(JSON.stringify({ files, listeners: process.listenerCount('exit') - before }));
    process.exit(0);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /MaxListenersExceeded/);
  const { files, listeners } = JSON.parse(run.stdout) as { files: string[]; listeners: number };
  assert.equal(files.length, 20);
  assert.equal(listeners, 1);
  assert.deepEqual(files.filter((file) => existsSync(dirname(file))), [], 'every private directory is gone');
});

test('codex: its own multi-agent tools are off, so its model uses patterm\'s', () => {
  const argv = bundled('codex').argv;
  const at = argv.indexOf('features.multi_agent=false');
  assert.ok(at > 0 && argv[at - 1] === '-c', `argv: ${argv.join(' ')}`);
});

test('codex: -c overrides with TOML values, plus per-tool approvals', () => {
  const { args } = buildInjection(bundled('codex').mcp_injection, PROXY, {});
  const overrides = args.filter((_, i) => args[i - 1] === '-c');
  assert.equal(overrides.length * 2, args.length, 'every override follows -c');
  assert.ok(overrides.includes('mcp_servers.patterm.command="/usr/bin/node"'));
  assert.ok(overrides.includes('mcp_servers.patterm.args=["/opt/patterm/bin/patterm","mcp-stdio","--socket","/run/p 1.sock","--identity","tok\\"en"]'));
  assert.ok(overrides.includes('mcp_servers.patterm.tools.report_to_parent.approval_mode="approve"'));
  // codex 0.171 runs an MCP tool not marked destructive without asking unless told to prompt.
  for (const tool of ['spawn_process', 'send_input', 'kill']) assert.ok(overrides.includes(`mcp_servers.patterm.tools.${tool}.approval_mode="prompt"`), `${tool} must ask`);
});

test('opencode: OPENCODE_CONFIG_CONTENT merged over what the user already set', () => {
  const existing = JSON.stringify({ theme: 'dark', mcp: { other: { type: 'remote', url: 'http://x' } } });
  const { env, args } = buildInjection(bundled('opencode').mcp_injection, PROXY, { OPENCODE_CONFIG_CONTENT: existing });
  assert.deepEqual(args, []);
  const config = JSON.parse(env.OPENCODE_CONFIG_CONTENT);
  assert.equal(config.theme, 'dark');
  assert.equal(config.mcp.other.url, 'http://x');
  const { timeout, ...entry } = config.mcp.patterm;
  assert.deepEqual(entry, { type: 'local', command: PROXY, enabled: true });
  // opencode cuts a call off at this timeout (reset by progress): it must outlast the longest wait a tool allows.
  assert.ok(timeout > MAX_WAIT_SECONDS * 1000, `opencode's MCP timeout ${timeout} ms against waits of up to ${MAX_WAIT_SECONDS} s`);
  assert.equal(config.permission.patterm_spawn_process, 'ask');
  // Conservative permissions: opencode's own default runs shell commands and edits without asking.
  assert.equal(config.permission.bash, 'ask');
  assert.equal(config.permission.edit, 'ask');
  assert.throws(() => buildInjection(bundled('opencode').mcp_injection, PROXY, { OPENCODE_CONFIG_CONTENT: 'not json' }), /OPENCODE_CONFIG_CONTENT already holds text that is not JSON/);
});

test('no injection adds nothing', () => {
  assert.deepEqual(buildInjection({ kind: 'none' }, PROXY, {}).args, []);
  assert.deepEqual(buildInjection(undefined, [], {}).env, {});
  assert.deepEqual(deepMerge({ a: { b: 1, c: 2 } }, { a: { b: 3 }, d: [1] }), { a: { b: 3, c: 2 }, d: [1] });
});
