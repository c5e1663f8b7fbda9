/**
 * A 50 KB prompt written into a pane with bracketed paste; the clock stops when
 * the child has received all of it (it prints the byte count, which the pane's
 * grid then shows).
 */
import { fileURLToPath } from 'node:url';
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { PASTE_END, PASTE_START, pastePayload } from '../harness/paste-payload.js';

export const SINK_ARGV = [process.execPath, fileURLToPath(new URL('../harness/paste-sink.js', import.meta.url))];

export default async function pastePatterm(args: { samples: number }): Promise<{ ms: number[] }> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    const pane = await coordinator.spawn({ argv: SINK_ARGV, kind: 'process' });
    const ready = await coordinator.waitFor(pane.id, { pattern: 'PASTE-SINK-READY', timeoutMs: 10_000 });
    if (!ready.matched) throw new Error(`paste sink did not start: ${ready.snippet}`);
    const payload = pastePayload();
    const bytes = Buffer.byteLength(payload);
    const ms: number[] = [];
    // Paste 1 warms the child's JIT (a cold node handles its first 50 KB string slowly); it is not counted.
    for (let i = 1; i <= args.samples + 1; i++) {
      const started = performance.now();
      coordinator.write(pane.id, `${PASTE_START}${payload}${PASTE_END}`, 'user');
      const got = await coordinator.waitFor(pane.id, { pattern: `GOT-${i}-(\\d+)`, timeoutMs: 30_000 });
      if (!got.matched) throw new Error(`paste ${i} never arrived: ${got.snippet}`);
      if (i > 1) ms.push(performance.now() - started);
      if (!got.snippet.includes(`GOT-${i}-${bytes}`)) throw new Error(`paste ${i} arrived incomplete: ${got.snippet} (sent ${bytes} bytes)`);
    }
    return { ms };
  } finally {
    await coordinator.shutdown(500);
  }
}
