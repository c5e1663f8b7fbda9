/**
 * Keystroke-to-echo latency through patterm: bin/patterm runs in a real PTY
 * (the host terminal), with `floods` sessions printing as fast as they can and
 * a quiet bash session focused. Each sample is one key written to patterm's
 * terminal until patterm has drawn the echo back out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostTerminal, sampleEchoes, sleep } from '../harness/tui-host-terminal.js';
import { PATTERM_BIN } from '../../src/main/version.js';

/** Long enough for the "Starting …" notices to expire, so only the echo redraws. */
const SETTLE_MS = 5_000;

export interface EchoArgs {
  floods: number;
  samples: number;
  /** File each flooding pane prints in a loop. */
  floodPath: string;
  cols: number;
  rows: number;
}

export default async function tuiEchoPatterm(args: EchoArgs): Promise<{ samples: number[] }> {
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-tui-'));
  const processes = join(root, 'config', 'patterm', 'presets', 'processes');
  mkdirSync(processes, { recursive: true });
  mkdirSync(join(root, 'runtime'), { mode: 0o700 });
  writeFileSync(join(processes, 'quiet.json'), JSON.stringify({ name: 'quiet', argv: ['bash', '--norc', '--noprofile', '-i'], env: { PS1: '$ ', HISTFILE: '/dev/null' } }));
  writeFileSync(join(processes, 'flood.json'), JSON.stringify({ name: 'flood', argv: ['sh', '-c', 'while :; do cat "$0"; done', args.floodPath] }));
  const host = new HostTerminal(process.execPath, [PATTERM_BIN], {
    cols: args.cols,
    rows: args.rows,
    cwd: root,
    env: { XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), XDG_STATE_HOME: join(root, 'state'), XDG_RUNTIME_DIR: join(root, 'runtime') },
  });
  try {
    await host.waitForText('Press Ctrl-K', 'the empty state');
    for (let i = 0; i < args.floods; i++) await spawn(host, 'flood', i === 0 ? 'flood' : `flood-${i + 1}`);
    await spawn(host, 'quiet', 'quiet');
    await host.waitForText(/^\$(\s|$)/m, 'the quiet prompt');
    await sleep(SETTLE_MS);
    return { samples: await sampleEchoes(host, args.samples) };
  } finally {
    host.kill();
    await sleep(2500); // patterm's SIGTERM → grace → SIGKILL cascade for the panes
    rmSync(root, { recursive: true, force: true });
  }
}

async function spawn(host: HostTerminal, preset: string, tab: string): Promise<void> {
  host.write('\x0b');
  await host.waitForText('Command palette', 'the palette');
  host.write(`run process: ${preset}`);
  await host.waitForText(`Run process: ${preset}`, `the ${preset} entry`);
  host.write('\r');
  await host.waitForText(new RegExp(`^.*\\b${tab}\\b.*\\+`, 'm'), `the ${tab} tab`);
}
