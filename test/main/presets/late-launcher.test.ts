/**
 * The launcher the TUI holds while the MCP server starts after the first
 * frame: a spawn issued before the server listens waits for it and starts the
 * agent with that server's MCP config; a server that never starts fails the
 * spawn, naming why.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AgentPreset } from '../../../src/shared/preset-schema.js';
import { startMcpServer } from '../../../src/main/mcp/index.js';
import { PresetAgentLauncher } from '../../../src/main/presets/agent-launcher.js';
import { LateLauncher } from '../../../src/main/presets/late-launcher.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { presetDirs } from '../../../src/main/presets/preset-paths.js';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const FAKE_AGENT = fileURLToPath(new URL('../../fixtures/fake-agent/fake-agent.js', import.meta.url));
/** Event-loop turns the caller lets pass: plenty for a call that did not wait to reach the coordinator. */
const TURNS = 20;

const WIRED: AgentPreset = {
  name: 'wired',
  argv: [process.execPath, FAKE_AGENT],
  ready_signal: { kind: 'pattern', pattern: '\\? for shortcuts', stable_ms: 50, timeout_ms: 20_000 },
  mcp_injection: { kind: 'config_file_flag', args: ['--mcp-config', '{config_file}'] },
};

function setup() {
  const root = scratchDir('patterm-late-launcher-');
  const dirs = presetDirs({ XDG_CONFIG_HOME: root });
  mkdirSync(dirs.agents, { recursive: true });
  mkdirSync(dirs.processes, { recursive: true });
  writeFileSync(join(dirs.agents, 'wired.json'), JSON.stringify(WIRED));
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  assert.deepEqual(catalog.errors, []);
  return { root, catalog, coordinator: useCoordinator(root) };
}

async function settledWithin(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < TURNS && !settled; turn++) await nextTurn();
  return settled;
}

test('a spawn issued before the MCP server listens waits for it, then starts the agent with its MCP config', async () => {
  const { root, catalog, coordinator } = setup();
  const late = new LateLauncher('the MCP server');
  const spawning = late.spawnAgent({ preset: 'wired' });
  assert.equal(await settledWithin(spawning), false, 'the spawn waits for the launcher');
  assert.equal(coordinator.allPanes().length, 0, 'no agent started without its MCP config');
  assert.equal(late.presetFor('p1'), undefined);

  const socketPath = join(root, 'mcp.sock');
  const server = await startMcpServer({
    coordinator,
    projectDir: root,
    dataHome: join(root, 'data'),
    socketPath,
    launcher: (endpoint) => new PresetAgentLauncher({ coordinator, endpoint, catalog }),
  });
  after(() => server.dispose());
  late.bind(server.launcher);

  const { pane } = await spawning;
  assert.equal(late.presetFor(pane.id)?.name, 'wired', 'presetFor goes through once bound');
  const text = await eventually(async () => {
    const now = (await coordinator.grid(pane.id)).lines.join('\n');
    return now.includes('--mcp-config') ? now : null;
  }, { message: 'the agent printing its argv' });
  const file = /"--mcp-config","([^"]+)"/.exec(text)?.[1];
  assert.ok(file, `config file in argv: ${text}`);
  assert.ok(readFileSync(file, 'utf8').includes(socketPath), 'the config points the agent at the server that was started');
  // Later calls go straight through.
  const shell = await late.spawnProcess({ argv: ['sh', '-c', 'echo late-ok'] });
  await eventually(async () => (await coordinator.grid(shell.id)).lines.join('\n').includes('late-ok'), { message: 'the process output' });
});

test('when the MCP server fails to start, waiting and later spawns fail naming why, and nothing starts', async () => {
  const { coordinator } = setup();
  const late = new LateLauncher('the MCP server');
  const waiting = late.spawnProcess({ argv: ['sh', '-c', 'echo never'] });
  late.fail(new Error('PATTERM_SOCKET must be an absolute path (received "x.sock")'));
  await assert.rejects(waiting, /^Error: the MCP server did not start: PATTERM_SOCKET must be an absolute path \(received "x.sock"\)$/);
  await assert.rejects(late.spawnAgent({ preset: 'wired' }), /the MCP server did not start/);
  assert.equal(coordinator.allPanes().length, 0);
});

test('a failure nobody was waiting on is no unhandled rejection', async () => {
  const late = new LateLauncher('the MCP server');
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    late.fail(new Error('gone'));
    for (let turn = 0; turn < TURNS; turn++) await nextTurn();
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
