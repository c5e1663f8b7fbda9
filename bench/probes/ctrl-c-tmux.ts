/**
 * Baseline for ctrl-c-flood: the same bash and `yes` in a tmux pane,
 * `send-keys C-c`, then capture-pane polled until the prompt is the last line
 * and the screen has stayed the same for QUIET_MS. Polling costs a tmux client
 * per look (~ a few ms), so this baseline is, if anything, flattered by
 * POLL_MS granularity only on the slow side.
 */
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';
import { BASH_ARGV, BASH_ENV, FLOOD_MS, PROMPT, QUIET_MS } from './ctrl-c-patterm.js';

const POLL_MS = 5;

function promptIsLast(screen: string): boolean {
  const lines = screen.split('\n').map((line) => line.trimEnd()).filter((line) => line.length > 0);
  return lines[lines.length - 1] === PROMPT.trimEnd();
}

export default async function ctrlCTmux(args: { samples: number }): Promise<{ ms: number[] }> {
  const server = new TmuxServer();
  try {
    const env = Object.entries(BASH_ENV).map(([key, value]) => `${key}=${shellQuote(value)}`).join(' ');
    await server.newPane(`env ${env} ${BASH_ARGV.map(shellQuote).join(' ')}`);
    const capture = () => server.tmux('capture-pane', '-p', '-t', '0');
    while (!promptIsLast(await capture())) await sleep(POLL_MS);
    const ms: number[] = [];
    for (let i = 0; i < args.samples; i++) {
      await server.tmux('send-keys', '-t', '0', 'yes', 'Enter');
      await sleep(FLOOD_MS);
      const started = performance.now();
      await server.tmux('send-keys', '-t', '0', 'C-c');
      let promptAt = 0;
      let last = '';
      for (;;) {
        const screen = await capture();
        const now = performance.now();
        if (!promptIsLast(screen) || screen !== last) promptAt = promptIsLast(screen) ? now : 0;
        last = screen;
        if (promptAt && now - promptAt >= QUIET_MS) break;
        if (now - started > 30_000) throw new Error('tmux: prompt did not come back after C-c');
        await sleep(POLL_MS);
      }
      ms.push(promptAt - started);
    }
    return { ms };
  } finally {
    server.kill();
  }
}
