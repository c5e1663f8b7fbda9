/**
 * Lets one thread write to a file descriptor that another thread owns and will
 * close, without ever writing to a closed (or, worse, reused) descriptor.
 *
 * The TUI renderer writes the user's keystrokes straight to the focused pane's
 * PTY master, and the coordinator writes everything else it sends, so input
 * never waits on the PTY host thread (which is busy with every pane's output).
 * The PTY host owns the master and closes it when the pane ends; before it
 * lets that happen it calls `revoke()`, which
 * returns only once no write is in progress and no later one can start. The
 * writer holds the lease for the length of one non-blocking write (microseconds).
 *
 * Both sides share one SharedArrayBuffer: [open flag, writers in progress,
 * holds]. Sequentially consistent Atomics make the handshake exact: a writer
 * either registered before the flag dropped (and revoke waits for it), or it
 * sees the flag down and does not write.
 *
 * A hold asks writers to wait without closing anything: the coordinator holds
 * the lease while a resize is on its way to the PTY host, so input typed after
 * a resize (in the TUI, or sent by an orchestrator) reaches the program after it.
 */

const OPEN = 0;
const WRITERS = 1;
const HOLDS = 2;
/** Far longer than a non-blocking write of a few keys takes, however loaded the machine. */
const MAX_WRITE_MS = 100;

export class InputLease {
  private readonly cells: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)) {
    this.cells = new Int32Array(buffer);
  }

  /** A new lease, open for writing. */
  static open(): InputLease {
    const lease = new InputLease();
    Atomics.store(lease.cells, OPEN, 1);
    return lease;
  }

  get isOpen(): boolean {
    return Atomics.load(this.cells, OPEN) === 1;
  }

  /** Writers should wait (not fail): see hold(). */
  get held(): boolean {
    return Atomics.load(this.cells, HOLDS) > 0;
  }

  /** Until the matching release(), writers keep their input queued, in order. Holds nest. */
  hold(): void {
    Atomics.add(this.cells, HOLDS, 1);
  }

  release(): void {
    Atomics.sub(this.cells, HOLDS, 1);
  }

  /**
   * Runs `write` while the descriptor is guaranteed open and returns its
   * result, or returns `closed` without running it once the lease is revoked.
   */
  holding<T, C>(write: () => T, closed: C): T | C {
    Atomics.add(this.cells, WRITERS, 1);
    try {
      return Atomics.load(this.cells, OPEN) === 1 ? write() : closed;
    } finally {
      Atomics.sub(this.cells, WRITERS, 1);
    }
  }

  /**
   * Closes the lease for good. After this returns no write is running and
   * none will start, so the owner may close the descriptor.
   */
  revoke(): void {
    Atomics.store(this.cells, OPEN, 0);
    // A writer inside holding() finishes one non-blocking write: spinning is
    // shorter than any sleep the platform offers. The bound covers a writer
    // thread terminated mid-write (termination skips its finally): its count
    // would never drop, and the owner must not hang on it.
    const deadline = Date.now() + MAX_WRITE_MS;
    while (Atomics.load(this.cells, WRITERS) !== 0 && Date.now() < deadline) {
      // spin
    }
  }
}

/** What the renderer needs to write the focused pane's input itself. */
export interface DirectInputChannel {
  /** The pane's PTY master. */
  fd: number;
  /** The InputLease's buffer: write only while holding it. */
  lease: SharedArrayBuffer;
}
