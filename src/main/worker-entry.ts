/**
 * Where each worker thread's code is. Workers start from one bundled file per
 * entry point (scripts/bundle-workers.mjs, run by the build after tsc, bundles
 * exactly this list), not from tsc's files: a worker loads its module graph on
 * its own, and a pane gets a worker of its own, so loading ~40 files per pane
 * was a third of a spawn's CPU.
 */
export const WORKER_ENTRIES = ['workers/pane-worker', 'workers/pty-host-worker', 'renderer/renderer-worker', 'workers/cpu-tasks'] as const;

export type WorkerEntry = (typeof WORKER_ENTRIES)[number];

/** The bundle of `entry`, beside tsc's `<entry>.js` under dist/src. */
export function workerEntryUrl(entry: WorkerEntry): URL {
  return new URL(`../${entry}.bundle.js`, import.meta.url);
}

/**
 * V8 heap limits of the pane and PTY host threads. Their bytes live in shared
 * memory and WASM, so their JavaScript heaps stay small, but under a flood V8
 * grows a thread's young generation towards its default of 48 MiB and keeps
 * it resident. 4 MiB, not less: a smaller one made animating panes collect
 * more often.
 */
export const SMALL_HEAP_LIMITS = { maxYoungGenerationSizeMb: 4 } as const;
