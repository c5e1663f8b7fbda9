/**
 * Replaces a pane's bloated emulator with a fresh one showing the same screen,
 * modes and scrollback (see screen-serializer.ts for why and what is lost).
 *
 * The scrollback is what the TUI's history reader and read_output's
 * history_lines show, so it is carried over when it can be. But output with
 * hundreds of styles is what bloats an emulator, and replaying a scrollback
 * full of it can bloat the fresh one nearly as much: then compaction would
 * come round again within a few batches. A fresh emulator that comes out above
 * half the size that set compaction off is dropped, and so is one whose
 * painting runs past SCROLLBACK_PAINT_BUDGET_MS; then the scrollback is painted
 * again as plain text (the screen keeps its styles), and only if that fails
 * too is the screen painted alone.
 */
import type { ScrollbackStyle } from '../shared/screen-serializer.js';
import type { GhosttyEmulator } from './ghostty-emulator.js';
import { logDegraded } from '../node/patterm-log.js';

const encoder = new TextEncoder();

/**
 * Longest the scrollback may take to paint, each way (styled, then plain),
 * before it is given up. The pane's worker does nothing else while it paints,
 * and ghostty-web 0.4.0 has slow spikes on many-styles output, far above a
 * typical paint (figures: docs/perf-notes.md).
 */
export const SCROLLBACK_PAINT_BUDGET_MS = 150;
/** The picture goes in slices this big, the clock checked between them: a slow spike overruns the budget by at most one slice. */
const PAINT_SLICE_BYTES = 16 * 1024;

/** How much of the old scrollback the fresh emulator holds: all of it as it was, its text alone, or none. */
export type ScrollbackCarried = ScrollbackStyle | 'none';

export interface Compaction {
  emulator: GhosttyEmulator;
  scrollback: ScrollbackCarried;
}

/**
 * `create` makes an empty emulator of the old one's size; `limitBytes` is the
 * size that set compaction off. Returns the fresh emulator (the caller disposes
 * of the old one) and how it carried the scrollback, or null when rebuilding
 * failed and the old one should stay. Errors reading the old emulator
 * propagate (a trap there is the caller's to handle).
 */
export function compactEmulator(old: GhosttyEmulator, create: () => GhosttyEmulator, limitBytes: number, paintBudgetMs = SCROLLBACK_PAINT_BUDGET_MS): Compaction | null {
  for (const style of ['styled', 'plain'] as const) {
    const fresh = paint(old.serialize(style), create, paintBudgetMs);
    if (fresh && fresh.wasmMemoryBytes() <= limitBytes / 2) return { emulator: fresh, scrollback: style };
    fresh?.dispose();
  }
  const screenOnly = paint(old.serialize('none'), create, Number.POSITIVE_INFINITY);
  return screenOnly && { emulator: screenOnly, scrollback: 'none' };
}

/** A fresh emulator showing `picture`, or null when painting it failed or ran past `budgetMs`. */
function paint(picture: string, create: () => GhosttyEmulator, budgetMs: number): GhosttyEmulator | null {
  const fresh = create();
  try {
    const bytes = encoder.encode(picture);
    const started = performance.now();
    for (let at = 0; at < bytes.length; at += PAINT_SLICE_BYTES) {
      if (performance.now() - started > budgetMs) {
        fresh.dispose();
        return null;
      }
      fresh.write(bytes.subarray(at, at + PAINT_SLICE_BYTES));
    }
    fresh.takeResponses();
    return fresh;
  } catch (error) {
    logDegraded('painting a compacted emulator; the pane keeps its old, bloated one', error);
    fresh.dispose();
    return null;
  }
}
