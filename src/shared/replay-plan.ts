/**
 * Which bytes to replay into a fresh emulator after the pane's WASM instance
 * trapped: the pane keeps working, showing as much of its true screen as the
 * faulty input allows.
 */
import type { ByteRing } from './byte-ring.js';

/**
 * A second trap this soon after a rebuild is a storm: ghostty-web 0.4.0 traps
 * every few hundred scrolled lines that hold multi-codepoint graphemes
 * (combining marks, VS16 emoji), and a full 1 MiB replay holds more than that,
 * so it traps again, and full replays then crawl (docs/perf-notes.md).
 */
export const TRAP_STORM_WINDOW_MS = 2000;
/** Upper bound of a storm rebuild's replay: a screenful of long lines fits; ~400 grapheme lines (which trap) do not. */
const STORM_REPLAY_BYTES = 32 * 1024;

/**
 * Ring ranges [from, end) to try in order until one replays without a trap.
 * Normally: everything; then everything but the chunk being parsed when it
 * trapped; then nothing (a blank screen). In a storm, replaying everything
 * would only trap again, so: the last screenful, then nothing.
 */
export function replayAttempts(ring: ByteRing, chunkStart: number, rows: number, storm: boolean): [number, number][] {
  const head = ring.headOffset;
  return storm
    ? [[stormReplayStart(ring, rows), head], [head, head]]
    : [[ring.tailOffset, head], [ring.tailOffset, chunkStart], [head, head]];
}

/**
 * Ring ranges to try in order when a resize rebuilds the emulator at the new
 * size instead of reflowing it (emulator-keeper.ts): everything, then the last
 * screenful (narrow sizes make ghostty-web trap on such output sooner), then
 * nothing.
 */
export function resizeReplayAttempts(ring: ByteRing, rows: number): [number, number][] {
  const head = ring.headOffset;
  return [[ring.tailOffset, head], [stormReplayStart(ring, rows), head], [head, head]];
}

/**
 * Where a storm rebuild starts replaying: the start of the last screenful of
 * lines (at most STORM_REPLAY_BYTES back), so the visible screen comes back
 * while as few grapheme rows as possible count towards the next trap.
 */
function stormReplayStart(ring: ByteRing, rows: number): number {
  const from = Math.max(ring.tailOffset, ring.headOffset - STORM_REPLAY_BYTES);
  const tail = ring.read(from).bytes;
  let at = tail.length;
  for (let lines = 0; lines <= rows; lines++) {
    const newline = tail.lastIndexOf(0x0a, at - 1);
    if (newline === -1) return from;
    at = newline;
  }
  return from + at + 1;
}
