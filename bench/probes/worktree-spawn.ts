/**
 * A child spawned into a new worktree, against what it is made of: `git worktree add` alone
 * in the same repository, and the same child spawned without a worktree. Both spawns go
 * through spawn_process as an agent calls it (the MCP SDK client over `patterm mcp-stdio`)
 * and return at the child's ready line (ready_pattern), so the MCP hops count on both sides.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Coordinator } from '../../src/main/coordinator.js';
import { startMcpServer } from '../../src/main/mcp/index.js';
import { createAgentLauncher } from '../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../src/main/presets/preset-catalog.js';
import { PATTERM_BIN } from '../../src/main/version.js';

export interface WorktreeSpawnResult {
  files: number;
  /** `git worktree add -b <branch> <dir> HEAD`, per iteration. */
  gitAddMs: number[];
  /** spawn_process of the child in the checkout, to its ready line. */
  childMs: number[];
  /** spawn_process of the same child with worktree, to its ready line. */
  worktreeSpawnMs: number[];
}

const DIRS = 50;
const CHILD = ['sh', '-c', 'echo child-ready; exec sleep 600'];

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

/** A repository of `files` small files in DIRS directories, one commit. */
function makeRepository(dir: string, files: number): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `src/module-${i % DIRS}`);
    if (i < DIRS) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file-${i}.ts`), `export const value${i} = ${i};\n// ${'x'.repeat(i % 200)}\n`);
  }
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=bench', '-c', 'user.email=bench@patterm.invalid', 'commit', '-q', '-m', 'files');
}

export default async function worktreeSpawn(args: { dir: string; files: number; iterations: number }): Promise<WorktreeSpawnResult> {
  const project = join(args.dir, 'repo');
  makeRepository(project, args.files);
  const coordinator = new Coordinator(project);
  await coordinator.prewarm();
  const presets = join(args.dir, 'presets');
  const catalog = PresetCatalog.load({ dirs: { root: presets, agents: join(presets, 'agents'), processes: join(presets, 'processes'), shells: join(presets, 'shells') }, bundled: null });
  const mcp = await startMcpServer({
    coordinator,
    projectDir: project,
    dataHome: join(args.dir, 'data'),
    stateHome: join(args.dir, 'state'),
    socketPath: join(args.dir, 'mcp.sock'),
    launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog }),
  });
  const root = await coordinator.spawn({ argv: ['sleep', '600'], kind: 'agent', name: 'bench-lead' });
  const token = mcp.identities.issue();
  mcp.identities.bind(token, root.id);
  const client = new Client({ name: 'patterm-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [PATTERM_BIN, 'mcp-stdio', '--socket', mcp.socketPath, '--identity', token], stderr: 'inherit' }));

  const spawn = async (extra: Record<string, unknown>): Promise<number> => {
    const started = performance.now();
    const result = await client.callTool({ name: 'spawn_process', arguments: { argv: CHILD, ready_pattern: '^child-ready', ready_timeout_seconds: 60, ...extra } });
    const elapsed = performance.now() - started;
    const content = result.structuredContent as { child_id?: string; first_match?: string } | undefined;
    if (result.isError || content?.first_match !== 'ready') throw new Error(`spawn_process ${JSON.stringify(extra)} did not get ready: ${JSON.stringify(result.content)}`);
    await client.callTool({ name: 'kill', arguments: { child_id: content.child_id, close: true } });
    return elapsed;
  };
  const result: WorktreeSpawnResult = { files: args.files, gitAddMs: [], childMs: [], worktreeSpawnMs: [] };
  try {
    // Warm-up: the first call of each kind compiles its code paths and fills git's caches.
    await spawn({});
    await spawn({ worktree: 'warm-up' });
    git(project, 'worktree', 'add', '-q', '-b', 'bench/warm-up', join(args.dir, 'plain-warm-up'), 'HEAD');
    for (let i = 0; i < args.iterations; i++) {
      // Rotated, so load that drifts during the run falls on each kind alike.
      const steps = [
        async () => {
          const started = performance.now();
          git(project, 'worktree', 'add', '-q', '-b', `bench/plain-${i}`, join(args.dir, `plain-${i}`), 'HEAD');
          result.gitAddMs.push(performance.now() - started);
        },
        async () => result.childMs.push(await spawn({})),
        async () => result.worktreeSpawnMs.push(await spawn({ worktree: `bench-${i}` })),
      ];
      for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]();
    }
    return result;
  } finally {
    await client.close();
    await mcp.dispose();
    await coordinator.shutdown(500);
  }
}
