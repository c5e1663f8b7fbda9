/**
 * Gives memory back after panes end. Each pane's worker thread allocates from
 * glibc's per-thread arenas; when the thread ends, what it freed stays in those
 * arenas, and glibc's mmap threshold, which rises after the first large block
 * is freed, keeps later large blocks there too. After churn of many panes
 * patterm's RSS stayed several times what it was before (`pnpm bench spawn-churn`).
 * So the mmap threshold is fixed, and the arenas are trimmed once a burst of
 * closes has settled.
 */
import { nativeAddon } from './native-addon.js';
import { pattermLog } from '../../node/patterm-log.js';

/** Blocks this large or larger are mmapped, so freeing one unmaps it; glibc's initial threshold is 128 KiB. */
const MMAP_THRESHOLD_BYTES = 256 * 1024;
/** After the last of a burst of pane endings: their threads have exited by then, and one trim serves the burst. */
const TRIM_DELAY_MS = 1000;

let tuned = false;
let trimTimer: ReturnType<typeof setTimeout> | null = null;

/** Fixes the mmap threshold, once per process. */
export function tuneAllocator(): void {
  if (tuned) return;
  tuned = true;
  const addon = nativeAddon();
  if (addon && !addon.tuneAllocator(MMAP_THRESHOLD_BYTES)) pattermLog(`mallopt(M_MMAP_THRESHOLD, ${MMAP_THRESHOLD_BYTES}) failed; memory of ended panes may stay with patterm`);
}

/** A pane's worker ended: trims the allocator's arenas shortly, once for a whole burst. */
export function returnFreedMemorySoon(): void {
  if (trimTimer) clearTimeout(trimTimer);
  trimTimer = setTimeout(() => {
    trimTimer = null;
    nativeAddon()?.trimAllocator();
  }, TRIM_DELAY_MS);
  trimTimer.unref();
}
