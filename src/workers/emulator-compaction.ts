/**
 * Replaces a pane's bloated emulator with a fresh one showing the same screen,
 * modes and scrollback (see screen-serializer.ts for why and what is lost).
 *
 * The scrollback is what the TUI's history reader and read_output's
 * history_lines show, so it is carried over when it can be. But output with
 * hundreds of styles is what bloats an emulator, and replaying a scrollback
 * full of it can bloat the fresh one nearly as much: then compaction would
 * come round again within a few batches. A fresh emulator that comes out above
 * CARRIED_SCROLLBACK_LIMIT is dropped for one painted from the screen alone.
 */
import type { GhosttyEmulator } from './ghostty-emulator.js';

const encoder = new TextEncoder();

/**
 * `create` makes an empty emulator of the old one's size; `limitBytes` is the
 * size that set compaction off. Returns the fresh emulator (the caller disposes
 * of the old one), or null when rebuilding failed and the old one should stay.
 * Errors reading the old emulator propagate (a trap there is the caller's to handle).
 */
export function compactEmulator(old: GhosttyEmulator, create: () => GhosttyEmulator, limitBytes: number): GhosttyEmulator | null {
  const withScrollback = paint(old.serialize(true), create);
  if (withScrollback && withScrollback.wasmMemoryBytes() <= limitBytes / 2) return withScrollback;
  withScrollback?.dispose();
  return paint(old.serialize(false), create);
}

function paint(picture: string, create: () => GhosttyEmulator): GhosttyEmulator | null {
  const fresh = create();
  try {
    fresh.write(encoder.encode(picture));
    fresh.takeResponses();
    return fresh;
  } catch {
    fresh.dispose();
    return null;
  }
}
