/** Baseline for paste: the same payload into the same child with `tmux paste-buffer -p` (bracketed); capture-pane polled for the receipt. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pastePayload } from '../harness/paste-payload.js';
import { TmuxServer } from '../harness/tmux-server.js';
import { shellQuote, sleep } from '../harness/timing.js';
import { SINK_ARGV } from './paste-patterm.js';

const POLL_MS = 2;

export default async function pasteTmux(args: { samples: number }): Promise<{ ms: number[] }> {
  const server = new TmuxServer();
  const file = join(tmpdir(), `patterm-bench-paste-${process.pid}.txt`);
  try {
    const payload = pastePayload();
    const bytes = Buffer.byteLength(payload);
    writeFileSync(file, payload);
    await server.newPane(SINK_ARGV.map(shellQuote).join(' '));
    const screen = () => server.tmux('capture-pane', '-p', '-t', '0');
    while (!(await screen()).includes('PASTE-SINK-READY')) await sleep(POLL_MS);
    await server.tmux('load-buffer', '-b', 'bench', file);
    const ms: number[] = [];
    // Paste 1 warms the child's JIT, as in paste-patterm; it is not counted.
    for (let i = 1; i <= args.samples + 1; i++) {
      const started = performance.now();
      await server.tmux('paste-buffer', '-p', '-b', 'bench', '-t', '0');
      for (;;) {
        const text = await screen();
        if (text.includes(`GOT-${i}-`)) {
          if (!text.includes(`GOT-${i}-${bytes}`)) throw new Error(`tmux paste ${i} arrived incomplete`);
          break;
        }
        if (performance.now() - started > 30_000) throw new Error(`tmux paste ${i} never arrived`);
        await sleep(POLL_MS);
      }
      if (i > 1) ms.push(performance.now() - started);
    }
    return { ms };
  } finally {
    server.kill();
    rmSync(file, { force: true }); // the payload was loaded into tmux's buffer; nothing needs the file now
  }
}
