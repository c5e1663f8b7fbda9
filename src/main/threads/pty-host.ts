/**
 * The coordinator's side of its PTY host thread (see pty-host-protocol.ts):
 * starts the thread and hands out a RemotePty per pane. If the host dies, its
 * masters close with it and every child is hung up; whatever survives the
 * hangup is reaped by its pane marker, and every pane is reported killed at
 * once, so nothing waits on it forever. The coordinator starts a fresh host
 * for the next pane.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { InputActivity } from '../../shared/input-activity.js';
import type { PtyExit, PtyHostApi, PtyHostEvent, PtyHostInit, PtySpawned, PtySpawnOptions } from '../../shared/pty-host-protocol.js';
import type { ShellEvent } from '../../shared/shell-mark-tracker.js';
import { transfer } from '../../node/comlink-node.js';
import { killPaneTree } from '../../node/process-reaper.js';
import { RemotePty } from './remote-pty.js';
import { WorkerClient } from './worker-client.js';
import { SMALL_HEAP_LIMITS, workerEntryUrl } from './worker-entry.js';
import { ignoreError, warnError } from '../../node/patterm-log.js';


/** Children that outlive the hangup (they ignore SIGHUP) get SIGTERM, then SIGKILL after this. */
const HOST_GONE_GRACE_MS = 500;
/** What every pane is told when the host thread itself is gone. */
const HOST_GONE: PtyExit = { status: 'killed', exitCode: null, signal: null };

export class PtyHost {
  private readonly client: WorkerClient<PtyHostApi>;
  private readonly events: MessagePort;
  private readonly ptys = new Map<string, RemotePty>();
  private gone = false;
  /** Panes whose spawn() reply has not arrived yet, and the events (an exit, a shell's command events) that overtook it. */
  private readonly spawning = new Map<string, { exit: PtyExit | null; shell: ShellEvent[] }>();

  constructor(readonly activity: InputActivity) {
    const channel = new MessageChannel();
    this.events = channel.port1;
    const init: PtyHostInit = { activity: activity.buffer, events: channel.port2 };
    const worker = new Worker(workerEntryUrl('workers/pty-host-worker'), {
      workerData: init,
      transferList: [channel.port2],
      resourceLimits: SMALL_HEAP_LIMITS,
      // Never to the terminal: the TUI owns it (a crash still reaches us as an 'error' event).
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    this.client = new WorkerClient<PtyHostApi>(worker, 'PTY host');
    this.events.on('message', (event: PtyHostEvent) => (event.t === 'exit' ? this.onExit(event.id, event.exit) : this.onShellEvent(event.id, event.event)));
    // 'error' comes first and 'exit' may not come at all until every child has
    // exited (node-pty's wait threads hold the dying thread), so either ends it.
    worker.on('error', () => this.onHostGone());
    worker.on('exit', () => this.onHostGone());
  }

  /** Settles once the host thread has booted (or died trying): its first spawn then does not wait for the boot. */
  async ready(): Promise<void> {
    await this.client.call((remote) => remote.ping()).catch(ignoreError('waiting for the PTY host to boot; its first spawn reports the failure'));
  }

  /** Starts a process whose output goes to `dataPort` (the pane worker's end of a channel). */
  async spawn(id: string, options: PtySpawnOptions, dataPort: MessagePort): Promise<RemotePty> {
    this.spawning.set(id, { exit: null, shell: [] });
    let spawned: PtySpawned;
    try {
      spawned = await this.client.call((remote) => remote.spawn(id, options, transfer(dataPort, [dataPort])));
    } catch (error) {
      this.spawning.delete(id);
      throw error;
    }
    const early = this.spawning.get(id);
    this.spawning.delete(id);
    const pty = new RemotePty(id, options.marker, spawned, this.client, () => this.ptys.delete(id));
    this.ptys.set(id, pty);
    // A macrotask: the callers' await chain (Pane.start, Coordinator.spawn) subscribes to the exit first.
    if (early && (early.exit || early.shell.length > 0)) {
      setImmediate(() => {
        for (const event of early.shell) pty.reportShell(event);
        if (early.exit) pty.reportExit(early.exit);
      });
    }
    return pty;
  }

  private onExit(id: string, exit: PtyExit): void {
    // The events port and the RPC port are not ordered with each other: a
    // child that exits at once can be reported before its spawn() returns.
    const early = this.spawning.get(id);
    if (early) early.exit = exit;
    else this.ptys.get(id)?.reportExit(exit);
  }

  private onShellEvent(id: string, event: ShellEvent): void {
    const early = this.spawning.get(id);
    if (early) early.shell.push(event);
    else this.ptys.get(id)?.reportShell(event);
  }

  get dead(): boolean {
    return this.client.dead;
  }

  private onHostGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.events.close();
    for (const pty of [...this.ptys.values()]) {
      if (!pty.exited) void killPaneTree(pty.pid, pty.marker, 'SIGTERM', HOST_GONE_GRACE_MS).catch(warnError(`reaping pane ${pty.marker} after the PTY host died; its processes may run on`));
      pty.reportExit(HOST_GONE);
    }
  }

  async dispose(): Promise<void> {
    await this.client.terminate();
  }
}
