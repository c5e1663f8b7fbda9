/**
 * shell-run, tmux: the same loop by hand, as a script driving tmux would do
 * it: the same bash with the same start-up files in a tmux pane, `send-keys`
 * of the command and Enter, then capture-pane polled until the prompt is
 * back under that command's line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';
import { commandOf, PROMPT, shellHome } from '../harness/shell-home.js';

/** Between polls: each capture-pane is a tmux client process, itself a few ms. */
const POLL_MS = 1;

function lastTwo(screen: string): [string, string] {
  const lines = screen.split('\n').map((line) => line.trimEnd()).filter((line) => line.length > 0);
  return [lines[lines.length - 2] ?? '', lines[lines.length - 1] ?? ''];
}

export default async function shellRunTmux(args: { calls: number; warmup: number }): Promise<{ ms: number[] }> {
  const server = new TmuxServer();
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-shell-run-'));
  try {
    await server.start();
    await server.newPane(`env HOME=${shellQuote(shellHome(root))} bash -l -i`);
    const capture = () => server.tmux('capture-pane', '-p', '-t', ':1');
    const done = async (command: string, started: number) => {
      for (;;) {
        const [echo, prompt] = lastTwo(await capture());
        if (echo === `${PROMPT}${command}` && prompt === PROMPT.trimEnd()) return;
        if (performance.now() - started > 30_000) throw new Error(`tmux: the prompt did not come back after ${command}`);
        await sleep(POLL_MS);
      }
    };
    while (lastTwo(await capture())[1] !== PROMPT.trimEnd()) await sleep(POLL_MS);
    const ms: number[] = [];
    for (let i = 0; i < args.warmup + args.calls; i++) {
      const command = commandOf(i);
      const started = performance.now();
      await server.tmux('send-keys', '-t', ':1', '-l', command);
      await server.tmux('send-keys', '-t', ':1', 'Enter');
      await done(command, started);
      if (i >= args.warmup) ms.push(performance.now() - started);
    }
    return { ms };
  } finally {
    server.kill();
    rmSync(root, { recursive: true, force: true });
  }
}
