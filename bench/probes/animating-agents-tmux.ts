/** Baseline for animating-agents: the same 20 spinners as windows of one detached tmux server; the server's CPU. */
import { cpuMs } from '../harness/process-tree.js';
import { PANE } from '../harness/fence.js';
import { SPINNER_COUNT, spinnerArgv } from '../harness/spinner.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';
import { WARMUP_MS, WINDOW_MS, type AnimatingResult } from './animating-agents-patterm.js';

export default async function animatingAgentsTmux(): Promise<AnimatingResult> {
  const server = new TmuxServer();
  try {
    for (let i = 0; i < SPINNER_COUNT; i++) await server.newPane(spinnerArgv(PANE.rows).map(shellQuote).join(' '));
    await sleep(WARMUP_MS);
    const pid = await server.serverPid();
    const before = cpuMs(pid);
    const started = performance.now();
    await sleep(WINDOW_MS);
    return { cpuMs: cpuMs(pid) - before, windowMs: performance.now() - started };
  } finally {
    server.kill();
  }
}
