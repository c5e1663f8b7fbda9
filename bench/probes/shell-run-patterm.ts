/**
 * shell-run, patterm: a running patterm (coordinator and MCP server, as the
 * app has them), an agent in its own process (shell-run-client.ts) that
 * starts a bash shell pane through the real proxy and times `calls`
 * run_command calls of `true`, each from the call to its record.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Coordinator, INTERACTIVE_WORKER_NICE } from '../../src/main/coordinator.js';
import { startMcpServer } from '../../src/main/mcp/index.js';
import { createAgentLauncher } from '../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../src/main/presets/preset-catalog.js';
import { presetDirsIn } from '../../src/main/presets/preset-paths.js';
import { PANE } from '../harness/fence.js';
import { shellHome } from '../harness/shell-home.js';
import type { ShellRunJob, ShellRunReply } from '../harness/shell-run-client.js';

const CLIENT_PROCESS = fileURLToPath(new URL('../harness/shell-run-client.js', import.meta.url));

export default async function shellRunPatterm(args: { calls: number; warmup: number }): Promise<{ ms: number[] }> {
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-shell-run-'));
  const dirs = presetDirsIn(join(root, 'presets'));
  mkdirSync(dirs.agents, { recursive: true });
  const coordinator = new Coordinator(root);
  coordinator.workerNice = INTERACTIVE_WORKER_NICE;
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  await coordinator.prewarm();
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  const mcp = await startMcpServer({
    coordinator,
    projectDir: root,
    dataHome: join(root, 'data'),
    stateHome: join(root, 'state'),
    socketPath: join(root, 'patterm.sock'),
    launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog }),
  });
  try {
    const orchestrator = await coordinator.spawn({ argv: ['cat'], kind: 'agent', name: 'orchestrator' });
    const token = mcp.identities.issue();
    mcp.identities.bind(token, orchestrator.id);
    const job: ShellRunJob = { socketPath: mcp.socketPath, token, home: shellHome(root), shell: 'bash', warmup: args.warmup, calls: args.calls };
    const client = fork(CLIENT_PROCESS, [JSON.stringify(job)], { stdio: ['ignore', 2, 2, 'ipc'] });
    const reply = await new Promise<ShellRunReply>((resolve, reject) => {
      client.once('message', (message: ShellRunReply) => resolve(message));
      client.once('error', reject);
      client.once('exit', (code) => reject(new Error(`shell-run client exited (${code}) before it was done`)));
    });
    client.kill();
    if (reply.t === 'error') throw new Error(`shell-run client: ${reply.message}`);
    return { ms: reply.ms };
  } finally {
    await mcp.dispose();
    await coordinator.shutdown(500);
    rmSync(root, { recursive: true, force: true });
  }
}
