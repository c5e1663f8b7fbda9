/**
 * Gives memory back after panes end. Each pane's worker thread allocates from
 * glibc's per-thread arenas; when the thread ends, what it freed stays in those
 * arenas, and glibc's mmap threshold, which rises after the first large block
 * is freed, keeps later large blocks there too. And a burst of spawns grows the
 * main thread's young generation, which V8 shrinks only when it is told memory
 * is wanted or its memory reducer happens to run. After churn of many panes
 * patterm's RSS stayed well above where it was before (`pnpm bench spawn-churn`).
 * So the mmap threshold is fixed; once a burst of closes has settled V8 is
 * told to give memory back (here and in the PTY host) and the arenas are
 * trimmed; and they are trimmed again once the collections that follow have
 * freed what the burst left.
 */
import { AfterBurstSchedule, BURST_SETTLED_MS } from '../../node/after-burst-schedule.js';
import { nativeAddon } from '../../node/native-addon.js';
import { pattermLog } from '../../node/patterm-log.js';

/** Blocks this large or larger are mmapped, so freeing one unmaps it; glibc's initial threshold is 128 KiB. */
const MMAP_THRESHOLD_BYTES = 256 * 1024;
/**
 * Again once the collections asked for when the burst settled (the main
 * thread's here, the PTY host's in pty-host-worker.ts) have run: what they
 * free stays in the arenas until a trim.
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

const afterBurst = new AfterBurstSchedule([
  {
    delayMs: BURST_SETTLED_MS,
    run: () => {
      const addon = nativeAddon();
      addon?.notifyMemoryPressure();
      addon?.trimAllocator();
    },
  },
  { delayMs: LATE_TRIM_DELAY_MS, run: () => nativeAddon()?.trimAllocator() },
]);

/**
 * A pane's worker ended: shortly, V8 is asked to give memory back and the
 * arenas are trimmed, and they are trimmed once more later, once for a whole burst.
 */
export function returnFreedMemorySoon(): void {
  afterBurst.paneEnded();
}
