/** Floor: keystroke-to-echo latency of bash straight in a PTY, no multiplexer, no flood. */
import { HostTerminal, sampleEchoes } from '../harness/tui-host-terminal.js';
import type { EchoArgs } from './tui-echo-patterm.js';

export default async function tuiEchoRawPty(args: EchoArgs): Promise<{ samples: number[] }> {
  const host = new HostTerminal('bash', ['--norc', '--noprofile', '-i'], { cols: args.cols, rows: args.rows, env: { PS1: '$ ', HISTFILE: '/dev/null' } });
  try {
    await host.waitForText(/^\$(\s|$)/m, 'the bash prompt');
    return { samples: await sampleEchoes(host, args.samples) };
  } finally {
    host.kill();
  }
}
