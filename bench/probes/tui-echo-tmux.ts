/**
 * Baseline: keystroke-to-echo latency in tmux, the same way. A tmux client runs
 * in a real PTY with `floods` windows printing as fast as they can in the
 * background and a quiet bash in the current window.
 */
import { TmuxServer } from '../harness/tmux-server.js';
import { HostTerminal, sampleEchoes, sleep } from '../harness/tui-host-terminal.js';
import type { EchoArgs } from './tui-echo-patterm.js';

const SETTLE_MS = 2_000;

export default async function tuiEchoTmux(args: EchoArgs): Promise<{ samples: number[] }> {
  const server = new TmuxServer();
  const host = new HostTerminal(
    'tmux',
    ['-L', server.socket, '-f', '/dev/null', 'new-session', '-x', String(args.cols), '-y', String(args.rows), 'env', 'PS1=$ ', 'HISTFILE=/dev/null', 'bash', '--norc', '--noprofile', '-i'],
    { cols: args.cols, rows: args.rows },
  );
  try {
    await host.waitForText(/^\$(\s|$)/m, 'the tmux bash prompt');
    // No status line: its clock would redraw letters the echo detection looks for.
    await server.tmux('set-option', '-g', 'status', 'off');
    await server.tmux('set-option', '-g', 'escape-time', '0');
    for (let i = 0; i < args.floods; i++) await server.tmux('new-window', '-d', 'sh', '-c', 'while :; do cat "$0"; done', args.floodPath);
    await sleep(SETTLE_MS);
    return { samples: await sampleEchoes(host, args.samples) };
  } finally {
    host.kill();
    server.kill();
  }
}
