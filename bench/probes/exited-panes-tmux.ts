/** Baseline for exited-panes: the same short processes as windows of one tmux server that keeps dead panes (remain-on-exit). */
import { exitedPaneArgv, EXITED_PANES } from '../harness/exited-pane.js';
import { rssMiB } from '../harness/process-tree.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';

const SETTLE_MS = 1500;
const POLL_MS = 20;

export default async function exitedPanesTmux(): Promise<{ rssGrowthMiB: number; marginalMiB: number }> {
  const server = new TmuxServer();
  try {
    // The first window is a shell that stays, so the server's own size is the baseline.
    await server.newPane('sleep 600');
    await server.tmux('set-option', '-g', 'remain-on-exit', 'on');
    await sleep(SETTLE_MS);
    const pid = await server.serverPid();
    const baseline = rssMiB(pid);
    let halfway = baseline;
    for (let i = 0; i < EXITED_PANES; i++) {
      if (i === EXITED_PANES / 2) {
        await sleep(SETTLE_MS);
        halfway = rssMiB(pid);
      }
      await server.newPane(exitedPaneArgv(i).map(shellQuote).join(' '));
      const started = performance.now();
      while ((await server.tmux('display-message', '-p', '-t', `:${i + 1}`, '#{pane_dead}')).trim() !== '1') {
        if (performance.now() - started > 30_000) throw new Error(`tmux window ${i + 1} never exited`);
        await sleep(POLL_MS);
      }
    }
    await sleep(SETTLE_MS);
    const end = rssMiB(pid);
    return { rssGrowthMiB: end - baseline, marginalMiB: (end - halfway) / (EXITED_PANES / 2) };
  } finally {
    server.kill();
  }
}
