/**
 * One pane's PTY, seen from the coordinator: commands go to the PTY host
 * thread that owns it (pty-host.ts); its exit comes back from there once
 * every byte the child wrote has been delivered to the pane's worker.
 *
 * Input is written to the master from this thread (LeasedWriter), not sent to
 * the host: a keystroke an orchestrator sends would otherwise wait for the
 * host's event loop, which is busy with every flood's output.
 */
import { killPaneTree } from '../../node/process-reaper.js';
import { Emitter } from '../../shared/events.js';
import { InputLease, type DirectInputChannel } from '../../shared/input-lease.js';
import type { PtyExit, PtyHostApi, PtySpawned } from '../../shared/pty-host-protocol.js';
import type { ShellEvent } from '../../shared/shell-mark-tracker.js';
import type { Remote } from '../../node/comlink-node.js';
import { LeasedWriter } from '../../node/leased-writer.js';
import type { WorkerClient } from './worker-client.js';
import { ignoreError, warnError } from '../../node/patterm-log.js';

const encoder = new TextEncoder();

export class RemotePty {
  readonly pid: number;
  private readonly input: DirectInputChannel | null;
  private readonly writer: LeasedWriter | null;
  private exit: PtyExit | null = null;
  private isFocused = false;
  private awaitedCount = 0;
  /** The direct channel's lease, held while a resize is on its way (see resize). */
  private readonly lease: InputLease | null;
  private readonly onExitEmitter = new Emitter<PtyExit>();
  /** Fires once the process has exited and every byte it wrote was delivered. */
  readonly onExit = this.onExitEmitter.event;
  private readonly onShellEmitter = new Emitter<ShellEvent>();
  /** A shell pane's command events (command-tap.ts), in order, all before its exit. */
  readonly onShell = this.onShellEmitter.event;

  constructor(
    private readonly id: string,
    /** The env marker every descendant carries, for the reaper. */
    readonly marker: string,
    spawned: PtySpawned,
    private readonly host: WorkerClient<PtyHostApi>,
    private readonly forget: () => void,
  ) {
    this.pid = spawned.pid;
    this.input = spawned.input;
    this.writer = spawned.input ? new LeasedWriter(spawned.input, `pane ${id}`, (chunks) => chunks.forEach((chunk) => this.writeThroughHost(chunk))) : null;
    this.lease = spawned.input ? new InputLease(spawned.input.lease) : null;
  }

  get exited(): PtyExit | null {
    return this.exit;
  }

  /** Called by the host's events: the process ended and its output is all delivered. */
  reportExit(exit: PtyExit): void {
    if (this.exit) return;
    this.exit = exit;
    this.onExitEmitter.fire(exit);
  }

  /** Called by the host's events: a shell pane's command event. */
  reportShell(event: ShellEvent): void {
    if (!this.exit) this.onShellEmitter.fire(event);
  }

  /** See PtyHostApi.expectShellNonce; settles once the host has it, so marks printed after can be trusted. */
  async expectShellNonce(nonce: string): Promise<void> {
    await this.host.call((remote) => remote.expectShellNonce(this.id, nonce));
  }

  write(data: string | Uint8Array): void {
    if (this.exit || data.length === 0) return;
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    if (!this.writer?.write(bytes)) this.writeThroughHost(bytes);
  }

  /** For a pane without direct input (its child had exited before the host could hold its slave). */
  private writeThroughHost(bytes: Uint8Array): void {
    void this.host.call((remote) => remote.write(this.id, bytes)).catch(warnError(`writing ${bytes.length} bytes of input to PTY ${this.id} through the PTY host; they are lost`));
  }

  /**
   * Input sent after a resize must reach the program after it, or a command
   * typed right after (`stty size`, a TUI's first keys) sees the old size. The
   * resize is carried out on the host thread, which floods keep busy, while
   * input goes straight to the master, from this thread and from the TUI's
   * renderer; so the master's lease is held until the host has resized (one
   * round trip, and only just after a resize), and both writers wait for it.
   * Input through the host needs no hold: it queues behind the resize there.
   * The PTY is resized once `after` settles (the emulator's own resize, see
   * Pane.resize); the hold starts now, so input sent meanwhile waits too.
   */
  resize(cols: number, rows: number, after: Promise<unknown> = Promise.resolve()): void {
    if (this.exit) return;
    this.lease?.hold();
    void after
      .catch(ignoreError(`the emulator's resize of pane ${this.id}; the PTY is resized regardless`))
      .then(() => this.host.call((remote) => remote.resize(this.id, cols, rows)))
      .catch(ignoreError(`resizing PTY ${this.id}`)) // a dead host is reported by onHostGone
      .finally(() => this.lease?.release());
  }

  /** The TUI shows this pane (see PtyProcess.focused). */
  set focused(focused: boolean) {
    if (focused === this.isFocused) return;
    this.isFocused = focused;
    this.send((remote) => remote.setFocused(this.id, focused));
  }

  get focused(): boolean {
    return this.isFocused;
  }

  /** Callers waiting on this pane's screen (see PtyProcess.awaited). */
  set awaited(count: number) {
    this.awaitedCount = count;
    this.send((remote) => remote.setAwaited(this.id, count));
  }

  get awaited(): number {
    return this.awaitedCount;
  }

  /** See PtyHostApi.consumerGone. */
  consumerGone(): void {
    this.send((remote) => remote.consumerGone(this.id));
  }

  /** The master and its lease for direct input; null once the pane is ending. */
  directInput(): DirectInputChannel | null {
    return this.input && !this.exit && this.writer?.leaseOpen ? this.input : null;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM', graceMs = 2000): Promise<void> {
    // The root has exited, but what it left running (a setsid helper, a daemon) still carries the pane's marker.
    if (this.exit) return killPaneTree(null, this.marker, signal, graceMs);
    await this.host.call((remote) => remote.kill(this.id, signal, graceMs));
  }

  /** Closes the master without waiting (the kernel hangs up the child) and forgets the pane. */
  destroy(): void {
    this.writer?.detach();
    this.send((remote) => remote.destroy(this.id));
    this.forget();
    this.onExitEmitter.dispose();
    this.onShellEmitter.dispose();
  }

  /** A command (not input) whose only failure is a dead host, which onHostGone already reports. */
  private send(command: (remote: Remote<PtyHostApi>) => Promise<unknown>): void {
    void this.host.call(command).catch(ignoreError(`a command to PTY ${this.id}`));
  }
}
