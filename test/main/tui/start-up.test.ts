/**
 * Start-up: the first frame is drawn before the MCP server, the presets and
 * the scratchpads are ready (app.ts). What the user does right at the first
 * frame must still work: an agent opened then gets its MCP connection, a quit
 * or SIGTERM leaves no socket behind, and a server that cannot start is
 * reported once the terminal is back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TmuxPatterm, BASH_PRESET, FAKE_AGENT_PRESET } from './tmux-harness.js';
import { ScratchpadStore } from '../../../src/main/scratchpads/index.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

/** Unix sockets anywhere under `dir` (patterm's is $XDG_RUNTIME_DIR/patterm/<pid>.sock). */
function socketsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.sock'));
}

async function startedPatterm(): Promise<TmuxPatterm> {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET }, agentPresets: { fake: FAKE_AGENT_PRESET } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the first frame');
    return patterm;
  } catch (error) {
    patterm.stop();
    throw error;
  }
}

/**
 * Checked as soon as the exit shows: the orphan watchdog would also remove a
 * socket patterm left, but only after its two sweeps 0.3 s apart.
 */
async function expectExitWithoutSocket(patterm: TmuxPatterm, code: number): Promise<void> {
  await patterm.waitFor(new RegExp(`\\[patterm exited ${code}\\]`), `patterm to exit with ${code}`);
  assert.deepEqual(socketsUnder(patterm.dirs.runtime), [], 'patterm removed its MCP socket itself');
  await patterm.expectExitAndRestore(code);
  assert.doesNotMatch(patterm.screen().join('\n'), /crashed|unhandled/i);
}

test('an agent and a process opened at the first frame start, the agent with its MCP connection', async () => {
  const patterm = await startedPatterm();
  try {
    await patterm.runPalette('spawn agent fake', 'Spawn agent: fake');
    await patterm.waitFor(/Initial prompt for fake/, 'the initial-prompt sub-palette');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => /^mcp\| connected, \d+ tools/.test(line)), 'the agent connected to the MCP server');
    await patterm.runPalette('run process bash', 'Run process: bash');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '$', 'the bash prompt');
    patterm.type('echo started-$((6*7))');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('started-42'), 'bash running the command');
  } finally {
    patterm.stop();
  }
});

test('a scratchpad the project already has is in the rail once the store is open after the first frame', async () => {
  const root = scratchDir('patterm-start-up-');
  const projectDir = join(root, 'project');
  const dataHome = join(root, 'data');
  mkdirSync(projectDir);
  const store = await ScratchpadStore.open({ projectDir, dataHome });
  await store.write('plan-at-start.md', '# plan\n');
  store.dispose();
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET }, projectDir, env: { XDG_DATA_HOME: dataHome } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the first frame');
    await patterm.spawnBash(); // the empty canvas shows no rail
    await patterm.waitFor(/plan-at-start\.md/, 'the scratchpad listed in the rail');
  } finally {
    patterm.stop();
  }
});

test('Quit at the first frame exits 0 and leaves no MCP socket', async () => {
  const patterm = await startedPatterm();
  try {
    await patterm.runPalette('quit', 'Quit');
    await expectExitWithoutSocket(patterm, 0);
  } finally {
    patterm.stop();
  }
});

test('SIGTERM at the first frame exits 143 and leaves no MCP socket', async () => {
  const patterm = await startedPatterm();
  try {
    process.kill(patterm.pattermPid()!, 'SIGTERM');
    await expectExitWithoutSocket(patterm, 143);
  } finally {
    patterm.stop();
  }
});

test('an MCP server that cannot start is reported with its reason once the terminal is back, exit code 1', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET }, env: { PATTERM_SOCKET: 'relative.sock' } });
  try {
    await patterm.expectExitAndRestore(1);
    const screen = patterm.screen().join('\n');
    assert.match(screen, /patterm: could not start the MCP server: Error: PATTERM_SOCKET must be an absolute path \(received "relative\.sock"\)/);
  } finally {
    patterm.stop();
  }
});
