/**
 * A shell pane's commands as the PTY host sees them: every byte, before any
 * of it can be skimmed (flood/README.md), goes through a ShellMarkTracker;
 * each command's output is written to a file of its own in the shell's
 * ledger directory, and the tracker's events go to the coordinator, which
 * keeps the ledger (src/main/shells/).
 *
 * Files are written asynchronously, so a slow disk never holds up the host's
 * reads; events wait in the same queue, so an `end` is sent only once its
 * output file is complete, and nothing overtakes it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScannedEvent } from '../shared/sequence-scanner.js';
import { ShellMarkTracker, type ShellEvent } from '../shared/shell-mark-tracker.js';
import type { ShellTapOptions } from '../shared/pty-host-protocol.js';
import { logIgnored } from '../node/patterm-log.js';

interface Capture {
  /** The file's name in the output directory. */
  file: string;
  bytes: number;
  handle: FileHandle | null;
  /** Writing failed once: the rest is counted, not written (the record says how much there was). */
  failed: boolean;
}

export class CommandTap {
  private readonly tracker: ShellMarkTracker;
  private queue: Promise<void> = Promise.resolve();
  /** Captures by the nonce of the command they belong to (a fallback command may run inside another). */
  private readonly captures = new Map<string, Capture>();
  private count = 0;
  private disposed = false;

  constructor(
    private readonly options: ShellTapOptions,
    private readonly emit: (event: ShellEvent) => void,
  ) {
    this.tracker = new ShellMarkTracker(options.nonce, {
      event: (event) => this.onEvent(event),
      output: (bytes) => this.onOutput(bytes),
    });
  }

  /** A fallback-wrapped command's marks will carry `nonce`. */
  expect(nonce: string): void {
    this.tracker.expect(nonce);
  }

  onBatch(bytes: Uint8Array, events: readonly ScannedEvent[], atGround: boolean): void {
    this.tracker.feed(bytes, events, atGround);
  }

  /** A skimmed front: plain output, marks impossible. */
  onPlain(bytes: Uint8Array): void {
    this.tracker.feedPlain(bytes);
  }

  /** Runs `step` after every event and write queued so far (the PTY's exit comes after its last command's end). */
  after(step: () => void): void {
    this.enqueue(async () => step());
  }

  private onEvent(event: ShellEvent): void {
    if (event.kind === 'start') {
      const file = `${this.options.tag}-${String(++this.count).padStart(4, '0')}.out`;
      this.captures.set(event.nonce, { file, bytes: 0, handle: null, failed: false });
      this.enqueue(async () => this.emit({ ...event, outputFile: file }));
      return;
    }
    if (event.kind === 'end' && event.ran) {
      const capture = this.captures.get(event.nonce);
      this.captures.delete(event.nonce);
      this.enqueue(async () => {
        await capture?.handle?.close().catch((error: unknown) => logIgnored(`closing command output ${capture.file}`, error));
        this.emit(capture ? { ...event, outputFile: capture.file, outputBytes: capture.bytes } : event);
      });
      return;
    }
    this.enqueue(async () => this.emit(event));
  }

  private onOutput(bytes: Uint8Array): void {
    const nonce = this.tracker.current;
    const capture = nonce === null ? undefined : this.captures.get(nonce);
    if (!capture) return;
    capture.bytes += bytes.length;
    if (capture.failed || this.disposed) return;
    // The read's buffer is reused once this returns (the output lane): the write needs its own copy.
    const copy = bytes.slice();
    this.enqueue(async () => {
      if (capture.failed) return;
      try {
        capture.handle ??= await open(join(this.options.outputDir, capture.file), 'wx', 0o600);
        await capture.handle.write(copy);
      } catch (error) {
        capture.failed = true;
        logIgnored(`writing command output ${capture.file} in ${this.options.outputDir}; the rest of it is counted, not kept`, error);
      }
    });
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => logIgnored('a shell pane\'s command tap', error));
  }

  /** Closes the files of commands still running (the pane is going away). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const open = [...this.captures.values()];
    this.captures.clear();
    this.enqueue(async () => {
      for (const capture of open) await capture.handle?.close().catch((error: unknown) => logIgnored(`closing command output ${capture.file}`, error));
    });
  }
}
