/**
 * Baseline "bare emulator parse": ghostty-web in this thread, configured as a
 * patterm pane is, fed the exact bytes the PTY would emit. No PTY, no threads:
 * the ceiling for a pane's parse.
 */
import { readFileSync } from 'node:fs';
import { loadGhosttyModule } from '../../src/main/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { DEFAULT_SCROLLBACK_LINES } from '../../src/shared/pane-protocol.js';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, PANE } from '../harness/fence.js';

/** Write size: what a busy PTY reader hands over per batch. */
const CHUNK_BYTES = 64 * 1024;

export default async function floodBareGhostty(args: { path: string }): Promise<{ ms: number; bytes: number }> {
  const cooked = cookForPty(readFileSync(args.path));
  const data = new Uint8Array(cooked.length + DSR_QUERY.length);
  data.set(cooked);
  data.set(new TextEncoder().encode(DSR_QUERY), cooked.length);
  const emulator = new GhosttyEmulator(await loadGhosttyModule(), { ...PANE, scrollbackLines: DEFAULT_SCROLLBACK_LINES });
  const started = performance.now();
  for (let offset = 0; offset < data.length; offset += CHUNK_BYTES) emulator.write(data.subarray(offset, offset + CHUNK_BYTES));
  const replies = emulator.takeResponses();
  const ms = performance.now() - started;
  if (!replies.some((reply) => reply.endsWith('R'))) throw new Error('ghostty did not answer the DSR fence');
  emulator.dispose();
  return { ms, bytes: data.length };
}
