/**
 * Lets pane workers boot a few at a time. A boot is CPU-bound work (Node's
 * worker bootstrap, the module graph, the WASM instance); more boots than
 * cores only time-slice with one another and with the panes already running,
 * and a quiet pane's echo stalls behind them (figures: docs/perf-notes.md).
 */
import { availableParallelism } from 'node:os';
import { Semaphore } from '../../shared/semaphore.js';

/** One boot per core: each one keeps a core busy until it is done. */
const CONCURRENT_WORKER_BOOTS = Math.max(1, availableParallelism());
/** A boot that has not reported within this long gives its slot up anyway, so one stuck worker cannot hold up every later spawn. */
const BOOT_SLOT_TIMEOUT_MS = 2000;

export interface Bootable {
  /** Settles once the worker has booted or is gone; never rejects. */
  readonly booted: Promise<void>;
}

export class WorkerBootGate {
  private readonly slots: Semaphore;

  constructor(
    concurrentBoots = CONCURRENT_WORKER_BOOTS,
    private readonly slotTimeoutMs = BOOT_SLOT_TIMEOUT_MS,
  ) {
    this.slots = new Semaphore(concurrentBoots);
  }

  /** Runs `start` in its turn and holds the slot until what it started has booted. */
  async start<T extends Bootable>(start: () => Promise<T>): Promise<T> {
    const release = await this.slots.acquire();
    let started: T;
    try {
      started = await start();
    } catch (error) {
      release();
      throw error;
    }
    const giveUp = setTimeout(release, this.slotTimeoutMs).unref();
    void started.booted.then(() => {
      clearTimeout(giveUp);
      release();
    });
    return started;
  }

  /** Boots in progress and spawns queued behind them. */
  get pending(): { booting: number; queued: number } {
    return { booting: this.slots.active, queued: this.slots.waiting };
  }
}
