/**
 * Starts and talks to the renderer thread. The renderer writes frames to the
 * host terminal's fd itself; this side only posts messages and hears back
 * commands. Stopping is a handshake, so the renderer's last frame can never
 * land after the terminal was restored.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import { Emitter } from '../../shared/events.js';
import type { FromRendererMessage, RendererInit, ToRendererMessage } from '../../shared/renderer-protocol.js';
import { workerEntryUrl } from '../threads/worker-entry.js';
import { startRendererThread } from './renderer-boot.cjs';

/** A renderer thread started ahead of its RendererHost (renderer-boot.cts); the launcher starts one sooner itself. */
export function bootRendererThread(): Worker {
  return startRendererThread(workerEntryUrl('renderer/renderer-worker'));
}

/** How long to wait for the renderer to acknowledge a stop before terminating it outright. */
const STOP_TIMEOUT_MS = 500;

export class RendererHost {
  private readonly worker: Worker;
  private readonly messageEmitter = new Emitter<FromRendererMessage>();
  private readonly crashEmitter = new Emitter<Error>();
  readonly onMessage = this.messageEmitter.event;
  /** The renderer thread died without being asked to stop. */
  readonly onCrash = this.crashEmitter.event;
  private stopping = false;

  /** `worker`: one bootRendererThread() started ahead; otherwise a new one. */
  constructor(init: RendererInit, worker: Worker = bootRendererThread()) {
    this.worker = worker;
    this.worker.ref();
    this.worker.postMessage(init);
    this.worker.on('message', (message: FromRendererMessage) => this.messageEmitter.fire(message));
    this.worker.on('error', (error) => {
      if (!this.stopping) this.crashEmitter.fire(error);
    });
    this.worker.on('exit', (code) => {
      if (!this.stopping) this.crashEmitter.fire(new Error(`the renderer thread exited with code ${code}`));
    });
  }

  post(message: ToRendererMessage, transfer: Array<ArrayBuffer | MessagePort> = []): void {
    if (this.stopping) return;
    this.worker.postMessage(message, transfer);
  }

  /**
   * Asks the renderer to draw nothing more and restore host modes, then ends
   * the thread. True when the renderer confirmed it restored the modes itself.
   */
  async stop(): Promise<boolean> {
    if (this.stopping) return false;
    const stopped = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS);
      this.onMessage((message) => {
        if (message.t === 'stopped') {
          clearTimeout(timer);
          resolve(true);
        }
      });
      this.worker.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    this.worker.postMessage({ t: 'shutdown' } satisfies ToRendererMessage);
    this.stopping = true;
    const restored = await stopped;
    await this.worker.terminate();
    this.messageEmitter.dispose();
    this.crashEmitter.dispose();
    return restored;
  }
}
