/**
 * The coordinator's side of its PTY host thread (see pty-host-protocol.ts):
 * starts the thread and hands out a RemotePty per pane. If the host dies, its
 * masters close with it and every child is hung up, so every pane is reported
 * killed at once; nothing waits on it forever.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { InputActivity } from '../shared/input-activity.js';
import type { PtyExit, PtyHostApi, PtyHostEvent, PtyHostInit, PtySpawnOptions } from '../shared/pty-host-protocol.js';
import { transfer } from '../workers/comlink-node.js';
import { RemotePty } from './remote-pty.js';
import { WorkerClient } from './worker-client.js';

const WORKER_URL = new URL('../workers/pty-host-worker.js', import.meta.url);

/** What every pane is told when the host thread itself is gone. */
const HOST_GONE: PtyExit = { status: 'killed', exitCode: null, signal: null };

export class PtyHost {
  private readonly client: WorkerClient<PtyHostApi>;
  private readonly events: MessagePort;
  private readonly ptys = new Map<string, RemotePty>();

  constructor(readonly activity: InputActivity) {
    const channel = new MessageChannel();
    this.events = channel.port1;
    const init: PtyHostInit = { activity: activity.buffer, events: channel.port2 };
    const worker = new Worker(WORKER_URL, {
      workerData: init,
      transferList: [channel.port2],
      // Logs never go to stdout: the TUI and the MCP proxy own it.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.pipe(process.stderr);
    this.client = new WorkerClient<PtyHostApi>(worker, 'PTY host');
    this.events.on('message', (event: PtyHostEvent) => this.ptys.get(event.id)?.reportExit(event.exit));
    worker.on('exit', () => this.onHostGone());
  }

  /** Starts a process whose output goes to `dataPort` (the pane worker's end of a channel). */
  async spawn(id: string, options: PtySpawnOptions, dataPort: MessagePort): Promise<RemotePty> {
    const spawned = await this.client.call((remote) => remote.spawn(id, options, transfer(dataPort, [dataPort])));
    const pty = new RemotePty(id, spawned, this.client, () => this.ptys.delete(id));
    this.ptys.set(id, pty);
    return pty;
  }

  private onHostGone(): void {
    this.events.close();
    for (const pty of [...this.ptys.values()]) pty.reportExit(HOST_GONE);
  }

  async dispose(): Promise<void> {
    await this.client.terminate();
  }
}
