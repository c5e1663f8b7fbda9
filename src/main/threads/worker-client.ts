/**
 * A Comlink remote that cannot hang. Comlink alone leaves a call pending forever
 * when its worker dies; here every call in flight rejects with a WorkerDiedError
 * the moment the worker errors or exits, and later calls reject at once.
 */
import { Worker } from 'node:worker_threads';
import { nodeEndpoint, releaseProxy, wrap, type Remote } from '../../node/comlink-node.js';
import { logIgnored } from '../../node/patterm-log.js';

export class WorkerDiedError extends Error {
  override readonly name = 'WorkerDiedError';
}

export class WorkerClient<Api> {
  readonly remote: Remote<Api>;
  private deathError: WorkerDiedError | null = null;
  private readonly inFlight = new Set<(error: Error) => void>();

  constructor(
    readonly worker: Worker,
    private readonly label: string,
    /** Runs before each call is sent: a pane wakes its worker (worker-wake.ts). */
    private readonly beforeCall: () => void = () => undefined,
  ) {
    this.remote = wrap<Api>(nodeEndpoint(worker));
    worker.on('error', (error) => this.die(`${label} worker crashed: ${error.message}`));
    worker.on('exit', (code) => this.die(`${label} worker exited with code ${code}`));
  }

  get dead(): boolean {
    return this.deathError !== null;
  }

  call<R>(invoke: (remote: Remote<Api>) => Promise<R>): Promise<R> {
    if (this.deathError) return Promise.reject(this.deathError);
    this.beforeCall();
    return new Promise<R>((resolve, reject) => {
      this.inFlight.add(reject);
      invoke(this.remote)
        .then(resolve, reject)
        .finally(() => this.inFlight.delete(reject));
    });
  }

  private die(message: string): void {
    if (this.deathError) return;
    this.deathError = new WorkerDiedError(message);
    for (const reject of this.inFlight) reject(this.deathError);
    this.inFlight.clear();
  }

  async terminate(): Promise<void> {
    this.die(`${this.label} worker was terminated`);
    try {
      (this.remote as unknown as { [releaseProxy]: () => void })[releaseProxy]();
    } catch (error) {
      // Already released.
      logIgnored(`releasing the ${this.label} worker's proxy`, error);
    }
    await this.worker.terminate();
  }
}
