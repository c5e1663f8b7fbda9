/** Where a PtyProcess hands its output: the PTY host's forwarding to the pane's worker (pty-host-service.ts). */
export interface OutputSink {
  /**
   * Takes an output batch. `flooding` marks a batch deep into a parse turn
   * (pty-process.ts, FLOOD_TURN_BYTES). `urgent`: the worker must hear of it
   * now; otherwise the sink may leave it for the worker to drain later
   * (deferredBytes), within a bounded delay.
   */
  deliver(bytes: Uint8Array, flooding: boolean, urgent: boolean): void;
  /** Bytes delivered since the worker was last told of output (see `urgent`); it may have drained some of them by itself. */
  deferredBytes(): number;
  /** Tells the worker of the deferred bytes now: something here waits on their parse. */
  announceDeferred(): void;
  /**
   * Where to write the next batch, of exactly `size` bytes, to deliver it
   * whole; null while there is no room for it yet (the consumer has not
   * finished with earlier batches: its next ack brings the caller back).
   */
  batchBuffer(size: number): Uint8Array | null;
  /**
   * Takes a skimmed front (skim-plan.ts), which may be a view of a buffer
   * still in use: the emulator parses `digest` in its place, and the worker
   * is sent only the part of it that the pane's output ring keeps.
   */
  skim(front: Uint8Array, digest: Uint8Array): void;
  /** The output delivered so far ends between sequences, with no scroll margins set on a screen of `rows` rows. */
  atPlainBoundary(rows: number): boolean;
}
