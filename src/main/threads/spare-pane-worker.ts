/**
 * One pane worker booted ahead of its pane. A worker cannot parse until it has
 * booted (Node's worker bootstrap, the module graph, ghostty-web's bundle
 * among it), while the spawned program's first output waits in the PTY host:
 * for a user, a visible delay before the prompt shows (docs/perf-notes.md).
 * A spare has booted already: a spawn hands it the pane (its size, buffers and
 * ports) in one message. The next spare boots once patterm is quiet, so its
 * boot never takes CPU from the pane just started (a flood, an agent CLI's
 * start-up), and through the boot gate, so it never delays a queued spawn.
 *
 * Only kept once asked for (Coordinator.prewarm: the app at start-up), so a
 * Coordinator used for a pane or two (tests, tools) does not boot extra workers.
 */
import type { Worker } from 'node:worker_threads';
import { SPARE_READY } from '../../shared/pane-protocol.js';
import { adoptPane, launchPaneWorker, launchSpareWorker, type PaneWorkerLaunch } from './pane-worker-launch.js';
import type { WorkerBootGate } from './worker-boot-gate.js';
import { ignoreError } from '../../node/patterm-log.js';

/** How often the wait for quiet looks at patterm's CPU use. */
const QUIET_CHECK_MS = 250;
/**
 * Quiet: patterm's threads used less than this share of one core over the
 * last check. A flooding pane keeps patterm above a whole core; agents'
 * spinners stay far below this.
 */
const QUIET_CPU_SHARE = 0.5;
/** A spare boots after this long whatever the load: one boot's CPU is nothing against a long flood. */
const MAX_QUIET_WAIT_MS = 5000;

export interface SpareOptions {
  quietCheckMs?: number;
  quietCpuShare?: number;
  maxQuietWaitMs?: number;
}

interface Spare {
  readonly worker: Worker;
  /** Settles once it has booted, or is gone; never rejects (a Bootable for the gate). */
  readonly booted: Promise<void>;
  gone: boolean;
}

export class SparePaneWorker {
  private spare: Spare | null = null;
  /** A spare's boot waiting for its turn at the gate. */
  private pending: Promise<void> | null = null;
  private quietWait: ReturnType<typeof setTimeout> | null = null;
  private keeping = false;
  private disposed = false;
  /** Panes that got the spare rather than a fresh worker. */
  adopted = 0;
  private readonly quietCheckMs: number;
  private readonly quietCpuShare: number;
  private readonly maxQuietWaitMs: number;

  constructor(
    private readonly gate: WorkerBootGate,
    options: SpareOptions = {},
  ) {
    this.quietCheckMs = options.quietCheckMs ?? QUIET_CHECK_MS;
    this.quietCpuShare = options.quietCpuShare ?? QUIET_CPU_SHARE;
    this.maxQuietWaitMs = options.maxQuietWaitMs ?? MAX_QUIET_WAIT_MS;
  }

  /** Whether a spare is kept at all: only once keep() was called (Coordinator.prewarm). */
  get keepsSpare(): boolean {
    return this.keeping;
  }

  /** From now on keeps one spare; boots it now, and settles once it has booted (or its boot failed). */
  async keep(): Promise<void> {
    this.keeping = true;
    this.boot();
    await this.pending;
    await this.spare?.booted;
  }

  /** Whether a spare is there to adopt the next pane (booted or still booting). */
  get available(): boolean {
    return this.spare !== null && !this.spare.gone;
  }

  /** The spare's thread, while there is one. */
  get threadId(): number | null {
    return this.available ? this.spare!.worker.threadId : null;
  }

  /** The pane's worker: the spare when there is one, else a fresh launch. Either way another spare follows. */
  launch(launch: PaneWorkerLaunch): Worker {
    const spare = this.spare;
    this.spare = null;
    this.replenish();
    if (!spare || spare.gone) return launchPaneWorker(launch);
    adoptPane(spare.worker, launch);
    this.adopted++;
    spare.worker.ref(); // a pane's worker keeps the process alive, as a launched one does
    return spare.worker;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.quietWait) clearTimeout(this.quietWait);
    await this.pending;
    const spare = this.spare;
    this.spare = null;
    if (spare) await spare.worker.terminate();
  }

  /** The next spare boots once patterm is quiet (or MAX_QUIET_WAIT_MS has passed). */
  private replenish(): void {
    if (!this.keeping || this.disposed || this.quietWait) return;
    const started = performance.now();
    let last = process.cpuUsage();
    const check = () => {
      const used = process.cpuUsage(last);
      last = process.cpuUsage();
      const share = (used.user + used.system) / 1000 / this.quietCheckMs;
      if (share >= this.quietCpuShare && performance.now() - started < this.maxQuietWaitMs) {
        this.quietWait = setTimeout(check, this.quietCheckMs).unref();
        return;
      }
      this.quietWait = null;
      this.boot();
    };
    this.quietWait = setTimeout(check, this.quietCheckMs).unref();
  }

  private boot(): void {
    if (this.disposed || this.spare || this.pending) return;
    this.pending = this.gate
      .start(async () => {
        if (this.disposed) throw new Error('disposed');
        return bootSpare();
      })
      .then(
        (spare) => {
          if (this.disposed) void spare.worker.terminate();
          else this.spare = spare;
        },
        ignoreError('booting a spare pane worker; the next spawn boots its own'),
      )
      .finally(() => {
        this.pending = null;
      });
  }
}

function bootSpare(): Spare {
  const worker = launchSpareWorker();
  // Until it has a pane, a spare must not keep the process alive.
  worker.unref();
  let markBooted!: () => void;
  const spare: Spare = { worker, gone: false, booted: new Promise<void>((resolve) => (markBooted = resolve)) };
  const onMessage = (message: unknown) => {
    if (message !== SPARE_READY) return;
    worker.off('message', onMessage);
    markBooted();
  };
  const onGone = () => {
    spare.gone = true;
    markBooted();
  };
  worker.on('message', onMessage);
  // A spare that fails to boot is replaced by a fresh launch at the next spawn; its error must not go unhandled.
  worker.on('error', onGone);
  worker.on('exit', onGone);
  return spare;
}
