/**
 * Gives memory back after panes end. Each pane's worker thread allocates from
 * glibc's per-thread arenas; when the thread ends, what it freed stays in those
 * arenas, and glibc's mmap threshold, which rises after the first large block
 * is freed, keeps later large blocks there too. After churn of many panes
 * patterm's RSS stayed several times what it was before (`pnpm bench spawn-churn`).
 * So the mmap threshold is fixed, and the arenas are trimmed once a burst of
 * closes has settled, and again once the surviving threads' collections have
 * freed what the burst left in their heaps.
 */
import { nativeAddon } from './native-addon.js';
import { pattermLog } from '../../node/patterm-log.js';

/** Blocks this large or larger are mmapped, so freeing one unmaps it; glibc's initial threshold is 128 KiB. */
const MMAP_THRESHOLD_BYTES = 256 * 1024;
/** After the last of a burst of pane endings: their threads have exited by then, and one trim serves the burst. */
const TRIM_DELAY_MS = 1000;
/**
 * Again after V8's memory reducer (which collects a quiet isolate 8 s after
 * a full collection) has freed what the burst left in the surviving threads'
 * heaps: memory they free then stays in the arenas until a trim.
 */
const LATE_TRIM_DELAY_MS = 15_000;

let tuned = false;

/** Fixes the mmap threshold, once per process. */
export function tuneAllocator(): void {
  if (tuned) return;
  tuned = true;
  const addon = nativeAddon();
  if (addon && !addon.tuneAllocator(MMAP_THRESHOLD_BYTES)) pattermLog(`mallopt(M_MMAP_THRESHOLD, ${MMAP_THRESHOLD_BYTES}) failed; memory of ended panes may stay with patterm`);
}

/** Trims after a burst of pane endings: each ending puts every trim of the schedule back to its full delay. */
export class TrimSchedule {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly delaysMs: readonly number[],
    private readonly trim: () => void,
  ) {}

  /** Trims scheduled and not yet run. */
  get pending(): number {
    return this.timers.size;
  }

  /** A pane's worker ended. */
  paneEnded(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const delayMs of this.delaysMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.trim();
      }, delayMs);
      // Never what keeps patterm alive.
      timer.unref();
      this.timers.add(timer);
    }
  }
}

const trims = new TrimSchedule([TRIM_DELAY_MS, LATE_TRIM_DELAY_MS], () => nativeAddon()?.trimAllocator());

/** A pane's worker ended: trims the allocator's arenas shortly, and once more later, once for a whole burst. */
export function returnFreedMemorySoon(): void {
  trims.paneEnded();
}
