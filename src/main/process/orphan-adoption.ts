/**
 * No pane process escapes patterm, even one that leaves its pane's session and
 * clears its environment (`setsid -f env -i …`, a double fork, `nohup`), which
 * the pane's own kill cannot find (process-reaper.ts). patterm makes itself a
 * child subreaper (PR_SET_CHILD_SUBREAPER, native/patterm-native.c), so the kernel
 * re-parents such an orphan to patterm instead of init. This module then:
 * - reaps adopted orphans that exit, so none stays a zombie;
 * - hands each live one to the orphan watchdog, which kills it and its
 *   descendants if patterm is SIGKILLed;
 * - ends them, and their descendants, in the exit cascade.
 *
 * Adopted orphans become children of patterm's main thread. The PTY host
 * thread's children (pane roots) are never waited for here: node-pty waits for
 * them, and the addon's waitpid(__WNOTHREAD) cannot reach another thread's child.
 * The main thread's own children (the watchdog, git for worktrees) are excluded
 * by pid: any child process this thread spawns must be declared in
 * src/node/own-children.ts.
 */
import { readFileSync } from 'node:fs';
import { killAfterDeath } from './leftover-paths.js';
import { nativeAddon, type NativeAddon } from '../../node/native-addon.js';
import { pattermLog } from '../../node/patterm-log.js';
import { isOwnChild } from '../../node/own-children.js';
import { liveProcessStats, POLL_INTERVAL_MS, SIGKILL_SETTLE_MS, signalAll, waitForExit, withDescendants } from '../../node/process-reaper.js';

/**
 * How often patterm lists its children while it runs. An orphan re-parents
 * with no signal to patterm, so this bounds how long one goes unknown to the
 * watchdog: a SIGKILL of patterm within this time of the adoption misses it
 * (unless it still carries the pane's environment marker).
 */
export const ADOPTION_SCAN_MS = 500;

export class OrphanAdoption {
  /** Adopted pid → takes its entry back from the watchdog. */
  private readonly adopted = new Map<number, () => void>();
  private scanQueued = false;

  /** Lives as long as the process: the interval and the SIGCHLD listener hold nothing open. */
  private constructor(private readonly native: NativeAddon) {
    setInterval(() => this.scan(), ADOPTION_SCAN_MS).unref();
    // An adopted orphan's exit raises SIGCHLD here: reap it at once.
    process.on('SIGCHLD', () => this.queueScan());
  }

  /** Makes this process a subreaper and starts watching its adoptions; null (logged) where that is impossible. */
  static start(): OrphanAdoption | null {
    const native = nativeAddon();
    if (!native) return null;
    try {
      native.becomeSubreaper();
    } catch (error) {
      pattermLog(`no subreaper: ${(error as Error).message}; a pane process that leaves its session and clears its environment can outlive patterm`);
      return null;
    }
    return new OrphanAdoption(native);
  }

  private queueScan(): void {
    if (this.scanQueued) return;
    this.scanQueued = true;
    setImmediate(() => {
      this.scanQueued = false;
      this.scan();
    });
  }

  /** Reaps the adopted children that exited and registers the new ones with the watchdog. */
  scan(): void {
    for (const pid of this.mainThreadChildren()) {
      if (isOwnChild(pid)) continue;
      if (this.native.reapIfExited(pid)) {
        this.adopted.get(pid)?.();
        this.adopted.delete(pid);
      } else if (!this.adopted.has(pid)) {
        this.adopted.set(pid, killAfterDeath(pid));
        pattermLog(`adopted orphan ${pid} (${commandName(pid)}): it left its pane; patterm reaps it and ends it on exit`);
      }
    }
  }

  private mainThreadChildren(): number[] {
    try {
      return readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      // Kernels without CONFIG_PROC_CHILDREN: every process whose parent is patterm.
      return liveProcessStats().filter((s) => s.ppid === process.pid).map((s) => s.pid);
    }
  }

  /**
   * The exit cascade for adopted orphans: `signal` to each one and its descendants,
   * then SIGKILL to those still there `graceMs` after their signal. Orphans keep
   * arriving while panes die, so this runs until `panesGone` settles.
   */
  async terminate(signal: NodeJS.Signals, graceMs: number, panesGone: Promise<unknown>): Promise<void> {
    let gone = false;
    const settle = () => {
      gone = true;
    };
    const panesSettled = panesGone.then(settle, settle);
    const signalledAt = new Map<number, number>();
    for (;;) {
      this.scan();
      const alive = withDescendants(this.adopted.keys());
      const fresh = alive.filter((pid) => !signalledAt.has(pid));
      signalAll(fresh, signal);
      for (const pid of fresh) signalledAt.set(pid, Date.now());
      if (gone && alive.every((pid) => Date.now() - signalledAt.get(pid)! >= graceMs)) break;
      const nextPoll = new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      // Until the panes are gone, their end is worth waking for: with no orphans left, quit ends then, not a poll later.
      await (gone ? nextPoll : Promise.race([nextPoll, panesSettled]));
    }
    this.scan();
    const survivors = withDescendants(this.adopted.keys());
    signalAll(survivors, 'SIGKILL');
    await waitForExit(survivors, SIGKILL_SETTLE_MS);
    this.scan();
  }
}

function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return 'gone';
  }
}
