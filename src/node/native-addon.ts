/**
 * patterm's native addon (native/patterm-native.c, built by scripts/build-native.mjs).
 * Everything that uses it works without it, with a weaker guarantee it logs.
 * Any thread may load it; each call acts on the calling thread (its isolate,
 * its children) or on the whole process (the allocator).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';
import { pattermLog } from './patterm-log.js';

export interface NativeAddon {
  becomeSubreaper(): boolean;
  isSubreaper(): boolean;
  reapIfExited(pid: number): boolean;
  tuneAllocator(mmapThresholdBytes: number): boolean;
  trimAllocator(): boolean;
  /** Asks the calling thread's V8 isolate to collect and shrink its heap; it does so incrementally, soon after. */
  notifyMemoryPressure(): void;
}

let addon: NativeAddon | null | undefined;

/** The loaded addon, or null (the reason logged once: not built, not Linux). */
export function nativeAddon(): NativeAddon | null {
  if (addon !== undefined) return addon;
  try {
    // From the package root: this file runs from tsc's output or from the app's bundle.
    addon = createRequire(import.meta.url)(join(PACKAGE_ROOT, 'dist', 'native', 'patterm-native.node')) as NativeAddon;
  } catch (error) {
    addon = null;
    pattermLog(`patterm's native addon did not load (${(error as Error).message}; run pnpm build): no subreaper, so a pane process that leaves its session and clears its environment can outlive patterm, and memory freed by ended panes is returned to the system only as glibc and V8 see fit`);
  }
  return addon;
}
