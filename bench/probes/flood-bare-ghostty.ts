/**
 * Baseline "bare emulator parse": ghostty-web in this thread, configured as a
 * patterm pane is, fed the exact bytes the PTY would emit. No PTY, no threads:
 * the ceiling for a pane's parse.
 */
import { readFileSync } from 'node:fs';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { DEFAULT_SCROLLBACK_BYTES } from '../../src/shared/pane-protocol.js';
import { cookForPty } from '../harness/flood-data.js';
import { DSR_QUERY, PANE } from '../harness/fence.js';

/** Write size: what a busy PTY reader hands over per batch. */
const CHUNK_BYTES = 64 * 1024;

export interface BareParse {
  ms: number;
  bytes: number;
  traps: number;
  cpuMs: number;
}

/** The PTY's bytes for the dataset at `path` (the first `limit` of them), ending in the DSR fence the PTY contenders end with. */
export function fencedPtyBytes(path: string, limit = Infinity): Uint8Array {
  const cooked = cookForPty(readFileSync(path));
  const body = cooked.subarray(0, Math.min(limit, cooked.length));
  const data = new Uint8Array(body.length + DSR_QUERY.length);
  data.set(body);
  data.set(new TextEncoder().encode(DSR_QUERY), body.length);
  return data;
}

/** Parses `data` in this thread, timed; it must end in the DSR fence, which ghostty has to answer. */
export async function parseBare(data: Uint8Array): Promise<BareParse> {
  const module = await loadGhosttyModule();
  const create = () => new GhosttyEmulator(module, { ...PANE, scrollbackBytes: DEFAULT_SCROLLBACK_BYTES });
  let emulator = create();
  let traps = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let offset = 0; offset < data.length; offset += CHUNK_BYTES) {
    try {
      emulator.write(data.subarray(offset, offset + CHUNK_BYTES));
    } catch {
      // ghostty-web 0.4.0 traps on some grapheme-heavy output; the cheapest possible
      // recovery (a fresh terminal, no replay) keeps this a ceiling for patterm's.
      traps++;
      emulator.dispose();
      emulator = create();
    }
  }
  const replies = emulator.takeResponses();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (!replies.some((reply) => reply.endsWith('R'))) throw new Error('ghostty did not answer the DSR fence');
  emulator.dispose();
  return { ms, bytes: data.length, traps, cpuMs: (used.user + used.system) / 1000 };
}

export default async function floodBareGhostty(args: { path: string }): Promise<BareParse> {
  return parseBare(fencedPtyBytes(args.path));
}
