/**
 * The real vendor CLIs as MCP hosts of `patterm mcp`, started outside patterm
 * with the set-up the README documents (claude: `claude mcp add`; codex: the
 * config.toml table; opencode: the project's opencode.json), each in its
 * non-interactive mode, offline against the fake model. Each spawns a child
 * process through patterm, waits for its output and reads it; when the CLI
 * exits, patterm mcp and the child must be gone too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeModelServer } from '../../fixtures/fake-model/server.js';
import { createVendorEnv, type VendorEnv } from '../../fixtures/fake-model/vendor-env.js';
import { findToolName, type Reply, type Rule, type TurnView } from '../../fixtures/fake-model/script.js';
import { cliVersion, VENDORS, type Vendor } from '../presets/agent-world.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { REPO } from '../tui/tmux-harness.js';
import { processesWith } from './helpers/headless-host.js';

/** opencode needed tens of seconds on a loaded 2-core machine. */
const RUN_TIMEOUT_MS = 180_000;

let root: string;
let project: string;
let server: FakeModelServer;
let vendor: VendorEnv;
let env: NodeJS.ProcessEnv;

before(async () => {
  root = realpathSync(mkdtempSync('/tmp/patterm-outside-host-'));
  project = join(root, 'project');
  mkdirSync(project);
  server = await new FakeModelServer().start();
  vendor = createVendorEnv(root, server.baseUrl, project);
  // `patterm` on PATH, as after `pnpm add -g .`: the snippets name it bare.
  // PWD too: opencode takes its project directory (and so its opencode.json) from it.
  env = { ...process.env, ...vendor.env, PATH: `${join(REPO, 'bin')}:${process.env.PATH}`, PWD: project };
  server.setRules(VENDORS.flatMap(hostRules));
});

after(async () => {
  await server?.stop();
  if (root) rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

const OUTPUT = 'OUTSIDE-CHILD-42';

/** spawn_process, wait_for_pattern, read_output, then say whether the output came back. */
function hostRules(name: Vendor): Rule[] {
  const mine = (turn: TurnView) => turn.userTexts.some((text) => text.includes(`HOST-RUN-${name}`));
  const call = (turn: TurnView, tool: string, args: Record<string, unknown>): Reply => ({ toolCall: { name: findToolName(turn, tool), arguments: args } });
  const childId = (turn: TurnView) => /child_id"?[:\s]+"?([0-9a-f]{6,})/.exec(turn.toolResults.join('\n'))?.[1] ?? 'missing-child-id';
  return [
    { name: `${name}-done`, when: (t) => mine(t) && t.toolResults.length >= 3, reply: (t) => ({ text: `HOST-DONE ${t.toolResults.at(-1)!.includes(OUTPUT) ? 'SAW-OUTPUT' : 'NO-OUTPUT'}` }) },
    { name: `${name}-read`, when: (t) => mine(t) && t.toolResults.length === 2, reply: (t) => call(t, 'read_output', { child_id: childId(t) }) },
    { name: `${name}-wait`, when: (t) => mine(t) && t.toolResults.length === 1, reply: (t) => call(t, 'wait_for_pattern', { child_id: childId(t), pattern: 'OUTSIDE-CHILD-\\d+', timeout_seconds: 60 }) },
    {
      name: `${name}-spawn`,
      when: mine,
      reply: (t) => call(t, 'spawn_process', { argv: ['sh', '-c', 'echo OUTSIDE-CHILD-$((6*7)); sleep 600'], name: `child-of-${name}` }),
    },
  ];
}

/** The README's set-up for each CLI, and how it runs one prompt without a terminal. */
const HOSTS: Record<Vendor, { setUp(): void; argv(prompt: string): string[] }> = {
  claude: {
    setUp: () => void execFileSync('claude', ['mcp', 'add', 'patterm', '--', 'patterm', 'mcp'], { cwd: project, env, stdio: 'ignore', timeout: 60_000 }),
    argv: (prompt) => ['claude', '-p', prompt, '--allowedTools', 'mcp__patterm__spawn_process,mcp__patterm__wait_for_pattern,mcp__patterm__read_output'],
  },
  codex: {
    setUp: () => appendFileSync(join(vendor.codexHome, 'config.toml'), '\n[mcp_servers.patterm]\ncommand = "patterm"\nargs = ["mcp"]\nrequired = true\ntool_timeout_sec = 1860\n'),
    // exec runs MCP tools without asking (approval: never); the project is trusted but not a git repository.
    argv: (prompt) => ['codex', 'exec', '--skip-git-repo-check', prompt],
  },
  opencode: {
    setUp: () =>
      writeFileSync(
        join(project, 'opencode.json'),
        JSON.stringify({ $schema: 'https://opencode.ai/config.json', mcp: { patterm: { type: 'local', command: ['patterm', 'mcp'], enabled: true, timeout: 1_860_000 } } }, null, 2),
      ),
    argv: (prompt) => ['opencode', 'run', prompt],
  },
};

for (const name of VENDORS) {
  const version = cliVersion(name);
  test(`${name} started outside patterm spawns a child through patterm mcp and reads its output`, { skip: version ? false : `${name} is not installed`, timeout: 300_000 }, async () => {
    HOSTS[name].setUp();
    const [command, ...args] = HOSTS[name].argv(`HOST-RUN-${name}: run a child process through patterm and read what it printed`);
    const cli = spawn(command, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    const timer = setTimeout(() => cli.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    const read = server.requests.find((request) => request.rule === `${name}-done`);
    assert.ok(read, `the model got to its last step; ${name} said:\n${output.slice(-3000)}`);
    assert.ok(read.turn!.toolResults.at(-1)!.includes(OUTPUT), `read_output brought the child's output back: ${read.turn!.toolResults.at(-1)}\n${name} said:\n${output.slice(-6000)}`);
    assert.match(output, /HOST-DONE SAW-OUTPUT/);
    assert.equal(code, 0, output.slice(-3000));
    // The CLI closed patterm mcp's stdin on its way out: patterm, its watchdog and the child end with it.
    await eventually(() => processesWith(`HOME=${vendor.home}`).length === 0 || null, {
      timeoutMs: 20_000,
      message: `every process started with the CLI's HOME to end (left: ${processesWith(`HOME=${vendor.home}`).join(' ')})`,
    });
    process.stderr.write(`# ${name} ${version}: spawned, waited and read through patterm mcp\n`);
  });
}
