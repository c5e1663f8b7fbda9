/** Baseline for many-agents: the same 20 idle vims as windows of one tmux server; readiness by polling capture-pane. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idleTuiArgv, readyMarker, TUI_COUNT } from '../harness/idle-tui.js';
import { treeMemory, type TreeMemory } from '../harness/process-tree.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';

const POLL_MS = 10;
const SETTLE_MS = 1500;

export default async function manyAgentsTmux(): Promise<{ readyMs: number; memory: TreeMemory }> {
  const server = new TmuxServer();
  const dir = mkdtempSync(join(tmpdir(), 'patterm-bench-agents-'));
  try {
    const argvs = Array.from({ length: TUI_COUNT }, (_, i) => idleTuiArgv(dir, i));
    const started = performance.now();
    for (const argv of argvs) await server.newPane(argv.map(shellQuote).join(' '));
    const pending = new Set(argvs.map((_, i) => i));
    while (pending.size > 0) {
      for (const i of [...pending]) {
        const screen = await server.tmux('capture-pane', '-p', '-t', `:${i}`);
        if (screen.includes(readyMarker(i))) pending.delete(i);
      }
      if (performance.now() - started > 30_000) throw new Error(`${pending.size} tmux windows never showed their screen`);
      if (pending.size > 0) await sleep(POLL_MS);
    }
    const readyMs = performance.now() - started;
    await sleep(SETTLE_MS);
    return { readyMs, memory: treeMemory(await server.serverPid()) };
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
