/**
 * A pane's settled grid, mirrored into a SharedArrayBuffer: the pane worker
 * publishes its GridSnapshot there, and the coordinator reads it without a
 * round trip to the worker. Waking a pane worker and waiting for its reply was
 * a large share of read_output's p99 under a many-pane flood; a quiet pane's
 * screen can be read straight from memory instead.
 *
 * One writer (the pane worker), any number of readers. The reader gets null
 * whenever the mirror may be behind the worker (output, a resize or a rebuild
 * since the last publish, never published, or a snapshot too large to fit) and
 * must then ask the worker.
 *
 * Layout: an Int32 header (sequence, output generation, published generation,
 * payload length, payload checksum), three BigInt64 words (time of the last
 * output, idle threshold, the output log's head offset when published), then
 * the snapshot as UTF-8 JSON. The head offset lets read_output's grid reads
 * report new_offset without waking the worker either.
 *
 * Concurrency is a seqlock: the writer makes the sequence odd, writes, makes it
 * even; a reader copies the payload and keeps the copy only if the sequence was
 * even and unchanged around it. The ECMAScript memory model does not order a
 * plain read before a later Atomics.load (nor do weakly ordered CPUs without a
 * fence), so a torn copy could in principle pass the sequence check: a checksum
 * of the payload, set under the same sequence, catches that.
 */
import type { GridSnapshot } from './pane-types.js';

const SEQUENCE = 0;
/** Bumped by every change that can alter the snapshot (markStale). */
const GENERATION = 1;
/** The generation the stored payload reflects; equal to GENERATION when current. */
const PUBLISHED_GENERATION = 2;
/** Payload bytes, or -1: nothing usable stored (never published, or too large). */
const LENGTH = 3;
const CHECKSUM = 4;
const HEADER_WORDS = 6; // 24 bytes: the BigInt64 words that follow must be 8-aligned
const LAST_OUTPUT = 0;
const THRESHOLD = 1;
/** Total bytes the pane's output log had taken in when the payload was built. */
const STREAM_HEAD = 2;
const INT64_WORDS = 3;
/** Bytes before the payload: the Int32 header and the BigInt64 words. */
export const GRID_MIRROR_HEADER_BYTES = HEADER_WORDS * 4 + INT64_WORDS * 8;
/** Header word a writer holds odd while it writes (exported for the torn-read test). */
export const GRID_MIRROR_SEQUENCE_WORD = SEQUENCE;

/**
 * Payload room: 1 MiB. The largest screen patterm sizes (500x200) full of wide
 * characters is 50,000 characters, at most 4 UTF-8 bytes each: ~200 KB of JSON.
 * 1 MiB leaves room for ~10 bytes a cell across that whole screen (combining
 * marks, ZWJ emoji sequences), and anything larger is read over RPC instead.
 * Memory is not the cost it seems: the OS commits a SharedArrayBuffer's pages
 * on first touch, so an 80x24 pane uses only the few KiB its snapshot fills.
 */
export const GRID_MIRROR_PAYLOAD_BYTES = 1024 * 1024;

/**
 * Reader attempts before giving up (returning null, so the caller uses RPC).
 * A publish holds the sequence odd only while it copies the encoded payload
 * (microseconds for a normal screen), so a retry or two normally suffices; the
 * bound keeps a reader from spinning on a writer preempted mid-publish.
 */
const READ_ATTEMPTS = 16;

const INT64_MAX = 0x7fffffffffffffffn;
const INT64_MIN = -0x8000000000000000n;

/** The snapshot as stored: everything but the time-dependent fields and the per-request row diff. */
type StoredGrid = Omit<GridSnapshot, 'idleMs' | 'idle' | 'changedRows' | 'styledLines'>;

export class GridMirror {
  private readonly header: Int32Array;
  private readonly int64Words: BigInt64Array;
  private readonly payload: Uint8Array;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  /** A buffer for one pane's mirror; the coordinator allocates it and passes it to the worker. */
  static allocate(payloadBytes = GRID_MIRROR_PAYLOAD_BYTES): SharedArrayBuffer {
    const buffer = new SharedArrayBuffer(GRID_MIRROR_HEADER_BYTES + payloadBytes);
    new Int32Array(buffer, 0, HEADER_WORDS)[LENGTH] = -1;
    return buffer;
  }

  constructor(buffer: SharedArrayBuffer) {
    if (buffer.byteLength < GRID_MIRROR_HEADER_BYTES) throw new RangeError(`GridMirror buffer too small: ${buffer.byteLength} bytes`);
    this.header = new Int32Array(buffer, 0, HEADER_WORDS);
    this.int64Words = new BigInt64Array(buffer, HEADER_WORDS * 4, INT64_WORDS);
    this.payload = new Uint8Array(buffer, GRID_MIRROR_HEADER_BYTES);
  }

  // ---- writer (the pane worker) --------------------------------------------------

  /**
   * Something that can change the snapshot happened: readers get null until the
   * next publish. An atomic add, so any thread may call it (the coordinator, say,
   * when the worker dies and its last snapshot must no longer be served). The
   * generation wraps at 2^32; a stale snapshot would be served only if exactly
   * 2^32 changes landed between a publish and a read.
   */
  markStale(): void {
    Atomics.add(this.header, GENERATION, 1);
  }

  /**
   * Output arrived at `atMs` (Date.now()): marks stale, then restarts the idle
   * clock. Stale first, so a reader that sees the new time also sees the
   * generation move and drops its (older) snapshot. Also call it once at start:
   * before any output, the idle clock runs from the pane's start.
   */
  noteOutput(atMs: number): void {
    this.markStale();
    Atomics.store(this.int64Words, LAST_OUTPUT, BigInt(Math.round(atMs)));
  }

  /**
   * The pane's idle threshold. Not part of the payload, so a change needs no
   * republish. Stored as ceil(ms): idleMs is a whole number, and for whole n,
   * n >= ms exactly when n >= ceil(ms); Infinity and NaN (never idle) and
   * -Infinity (always idle) become the int64 extremes.
   */
  setIdleThreshold(ms: number): void {
    const stored = Number.isFinite(ms) ? BigInt(Math.ceil(ms)) : ms === Number.NEGATIVE_INFINITY ? INT64_MIN : INT64_MAX;
    Atomics.store(this.int64Words, THRESHOLD, stored < INT64_MIN ? INT64_MIN : stored > INT64_MAX ? INT64_MAX : stored);
  }

  /** The current output generation: take it before building a snapshot, and pass it to publish(). */
  generation(): number {
    return Atomics.load(this.header, GENERATION);
  }

  /**
   * Stores `snapshot`, built when the generation was `generation` and the
   * output log's head was at `streamHead`. Why stale
   * output cannot slip through: a change marked before the generation was taken
   * is in the snapshot (it was built afterwards); one marked after has bumped the
   * generation past `generation`, so the stored generation never matches the
   * current one again and readers get null until a later publish. A reader that
   * sees a change land during its own copy returns null too. Returns
   * false when the snapshot does not fit; the mirror then serves nothing until
   * a publish that fits.
   */
  publish(snapshot: GridSnapshot, generation: number, streamHead: number): boolean {
    const { idleMs: _idleMs, idle: _idle, changedRows: _changedRows, ...stored } = snapshot;
    const bytes = this.encoder.encode(JSON.stringify(stored satisfies StoredGrid));
    const fits = bytes.length <= this.payload.length;
    const sum = fits ? checksum(bytes) : 0;
    Atomics.add(this.header, SEQUENCE, 1); // odd: a write is under way
    if (fits) {
      this.payload.set(bytes);
      Atomics.store(this.header, CHECKSUM, sum);
    }
    Atomics.store(this.header, LENGTH, fits ? bytes.length : -1);
    Atomics.store(this.int64Words, STREAM_HEAD, BigInt(streamHead));
    Atomics.store(this.header, PUBLISHED_GENERATION, generation);
    Atomics.add(this.header, SEQUENCE, 1); // even: consistent again
    return fits;
  }

  // ---- reader (the coordinator) --------------------------------------------------

  /**
   * The published snapshot, with idleMs and idle as the worker computes them
   * at `nowMs` (Date.now()); null when it may be behind the worker, or when a
   * consistent copy could not be had in READ_ATTEMPTS tries. Never has
   * changedRows.
   */
  read(nowMs: number): GridSnapshot | null {
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const sequence = Atomics.load(this.header, SEQUENCE);
      if (sequence & 1) continue; // a publish is under way
      const generation = Atomics.load(this.header, GENERATION);
      if (Atomics.load(this.header, PUBLISHED_GENERATION) !== generation) return null;
      const length = Atomics.load(this.header, LENGTH);
      if (length < 0) return null;
      const sum = Atomics.load(this.header, CHECKSUM);
      const lastOutput = Atomics.load(this.int64Words, LAST_OUTPUT);
      const threshold = Atomics.load(this.int64Words, THRESHOLD);
      const bytes = this.payload.slice(0, length); // a private copy: TextDecoder may refuse shared memory
      if (Atomics.load(this.header, SEQUENCE) !== sequence) continue;
      // Output during the copy: the copy may be fine, but the screen is no longer current.
      if (Atomics.load(this.header, GENERATION) !== generation) return null;
      if (checksum(bytes) !== sum) continue;
      return withIdle(JSON.parse(this.decoder.decode(bytes)) as StoredGrid, nowMs, lastOutput, threshold);
    }
    return null;
  }

  /**
   * The output log's head offset (total bytes taken in) as of the current
   * publish; null when the mirror may be behind the worker, as for read().
   * Served even when the snapshot itself did not fit.
   */
  streamHead(): number | null {
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const sequence = Atomics.load(this.header, SEQUENCE);
      if (sequence & 1) continue;
      const generation = Atomics.load(this.header, GENERATION);
      if (Atomics.load(this.header, PUBLISHED_GENERATION) !== generation) return null;
      const head = Atomics.load(this.int64Words, STREAM_HEAD);
      if (Atomics.load(this.header, SEQUENCE) !== sequence) continue;
      if (Atomics.load(this.header, GENERATION) !== generation) return null;
      return Number(head);
    }
    return null;
  }
}

/** The worker's idle clock (PaneService.idleMs) in wall-clock time; max(0) as Date.now() can step back. */
function withIdle(stored: StoredGrid, nowMs: number, lastOutput: bigint, threshold: bigint): GridSnapshot {
  const idleMs = Math.max(0, Math.round(nowMs - Number(lastOutput)));
  // Key order as PaneService.grid() builds it, so serialised replies read the same either way.
  return {
    lines: stored.lines,
    rows: stored.rows,
    cols: stored.cols,
    cursor: stored.cursor,
    activeScreen: stored.activeScreen,
    screenVersion: stored.screenVersion,
    idleMs,
    idle: BigInt(idleMs) >= threshold,
    title: stored.title,
    bracketedPaste: stored.bracketedPaste,
    mouseTracking: stored.mouseTracking,
    emulatorRebuilds: stored.emulatorRebuilds,
    ...(stored.synchronizedUpdate !== undefined && { synchronizedUpdate: stored.synchronizedUpdate }),
  };
}

/** FNV-1a over the payload: cheap next to the JSON.parse that follows it. */
function checksum(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash | 0;
}
