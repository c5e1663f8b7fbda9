/**
 * `patterm mcp` against a TUI's socket, for the same host in the same run.
 * This process plays the running TUI: a coordinator (with the TUI's worker
 * nice) and its MCP server, and a session opened as "Connect an external
 * orchestrator…" opens one, whose entry the host starts. The host (a forked
 * SDK client, mcp-headless-client.ts) also starts `patterm mcp` and times the
 * same read_output and wait_for_pattern calls on both.
 *
 * Start-up: launches of `patterm mcp` until its answer to `initialize` (and,
 * for information, to `tools/list`), against Node starting and answering one
 * line, alternating; an untimed launch first makes the config directories.
 */
import { fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Coordinator, INTERACTIVE_WORKER_NICE } from '../../src/main/coordinator.js';
import { startMcpServer } from '../../src/main/mcp/index.js';
import { createAgentLauncher } from '../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../src/main/presets/preset-catalog.js';
import { AttachedHosts } from '../../src/main/hosts/attached-hosts.js';
import { entryOf } from '../../src/main/hosts/host-entry.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PATTERM_BIN } from '../../src/main/version.js';
import { PANE } from '../harness/fence.js';
import { sleep } from '../harness/timing.js';
import type { HeadlessClientJob, HeadlessClientResult } from '../harness/mcp-headless-client.js';

export const HEADLESS = 'patterm mcp';
export const SOCKET = 'TUI socket';

export interface HeadlessArgs {
  quick: boolean;
}

export interface HeadlessResult {
  calls: HeadlessClientResult;
  /** Spawn until the answer to initialize, per launch. */
  initializeMs: number[];
  /** Spawn until the answer to tools/list sent right after it: when the session is usable. */
  toolsListMs: number[];
  /** Spawn until Node answered one line, per launch. */
  nodeMs: number[];
}

const READ_SAMPLES = 450;
const WAIT_SAMPLES = 100;
const LAUNCHES = 7;
/** Between launches: the last one's threads and children are gone. */
const PAUSE_MS = 300;
const CLIENT_PROCESS = fileURLToPath(new URL('../harness/mcp-headless-client.js', import.meta.url));
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
/** Node's floor: start, read one line, answer it. */
const NODE_ANSWER = 'process.stdin.once("data", () => process.stdout.write("{}\\n"))';

export default async function mcpHeadless(args: HeadlessArgs): Promise<HeadlessResult> {
  await loadGhosttyModule();
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-headless-'));
  const project = join(root, 'project');
  const runtime = join(root, 'runtime');
  mkdirSync(project);
  mkdirSync(runtime, { mode: 0o700 });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), XDG_STATE_HOME: join(root, 'state'), XDG_CACHE_HOME: join(root, 'cache'), XDG_RUNTIME_DIR: runtime };
  const headless = { command: process.execPath, args: [PATTERM_BIN, 'mcp', '--project', project], env };
  const dirs = { root: join(root, 'presets'), agents: join(root, 'presets', 'agents'), processes: join(root, 'presets', 'processes'), shells: join(root, 'presets', 'shells') };
  mkdirSync(dirs.agents, { recursive: true });
  mkdirSync(dirs.processes, { recursive: true });

  const coordinator = new Coordinator(project);
  coordinator.workerNice = INTERACTIVE_WORKER_NICE;
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  const mcp = await startMcpServer({ coordinator, projectDir: project, dataHome: join(root, 'data'), socketPath: join(runtime, 'tui.sock'), launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog }) });
  try {
    await coordinator.prewarm();
    const host = await new AttachedHosts({ coordinator, mcp }).connect();
    const socket = entryOf(mcp.proxyCommand(host.session.token));
    const job: HeadlessClientJob = {
      servers: { [HEADLESS]: headless, [SOCKET]: { ...socket, env } },
      dir: root,
      readSamples: args.quick ? 30 : READ_SAMPLES,
      waitSamples: args.quick ? 10 : WAIT_SAMPLES,
    };
    const calls = await runClient(job);

    const launches = args.quick ? 2 : LAUNCHES;
    await answerTime([headless.command, ...headless.args], env, true); // makes the config directories, copies the presets
    const result: HeadlessResult = { calls, initializeMs: [], toolsListMs: [], nodeMs: [] };
    for (let i = 0; i < launches; i++) {
      await sleep(PAUSE_MS);
      const patterm = await answerTime([headless.command, ...headless.args], env, true);
      result.initializeMs.push(patterm.first);
      result.toolsListMs.push(patterm.second);
      await sleep(PAUSE_MS);
      result.nodeMs.push((await answerTime([process.execPath, '-e', NODE_ANSWER], env, false)).first);
    }
    return result;
  } finally {
    await mcp.dispose();
    await coordinator.shutdown(500);
    rmSync(root, { recursive: true, force: true });
  }
}

function runClient(job: HeadlessClientJob): Promise<HeadlessClientResult> {
  const client = fork(CLIENT_PROCESS, [JSON.stringify(job)], { stdio: ['ignore', 2, 2, 'ipc'] });
  return new Promise((resolve, reject) => {
    client.on('message', (message: { t: 'done'; result: HeadlessClientResult } | { t: 'error'; message: string }) => (message.t === 'done' ? resolve(message.result) : reject(new Error(`mcp host: ${message.message}`))));
    client.on('error', reject);
    client.on('exit', (code) => reject(new Error(`the mcp host exited (${code}) before it was done`)));
  });
}

/**
 * Spawns `argv`, writes initialize (and tools/list when `list`) at once, and
 * times the first and second answer lines from the spawn; then closes stdin and waits for the exit.
 */
async function answerTime(argv: string[], env: Record<string, string>, list: boolean): Promise<{ first: number; second: number }> {
  const started = performance.now();
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.write(INITIALIZE + '\n' + (list ? TOOLS_LIST + '\n' : ''));
  const times: number[] = [];
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      while (buffered.includes('\n')) {
        buffered = buffered.slice(buffered.indexOf('\n') + 1);
        times.push(performance.now() - started);
        if (times.length === (list ? 2 : 1)) resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited (${code}) after ${times.length} answers`)));
  });
  child.stdin.end();
  await exited;
  return { first: times[0], second: times[1] ?? Number.NaN };
}
