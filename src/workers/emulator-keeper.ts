/**
 * Owns a pane's emulator and keeps it usable, so that one bad pane never takes
 * its worker down:
 *  - a WASM trap rebuilds it by replaying the pane's output log (replay-plan.ts);
 *  - a resize whose reflow runs away is stopped, and the log replayed at the new size;
 *  - a bloated one is compacted (emulator-compaction.ts).
 */
import type { ByteRing } from '../shared/byte-ring.js';
import { replayAttempts, resizeReplayAttempts, TRAP_STORM_WINDOW_MS } from '../shared/replay-plan.js';
import { compactEmulator, type ScrollbackCarried } from './emulator-compaction.js';
import { GhosttyEmulator } from './ghostty-emulator.js';
import { withinBudget } from '../node/time-budget.js';
import { logDegraded } from '../node/patterm-log.js';

/**
 * Above this much WASM memory the emulator is compacted: replaced by a fresh
 * one painted from its screen (screen-serializer.ts). A pane needs a few
 * MiB, but ghostty-web 0.4.0 never gives memory back, and output with
 * hundreds of distinct styles grows it many times faster than its input:
 * without this, a colourful flood grows a pane by hundreds of MiB
 * (figures: docs/perf-notes.md).
 */
export const COMPACT_WASM_BYTES = 64 * 1024 * 1024;
/**
 * On the alternate screen a compaction would lose the primary screen and its
 * scrollback (ghostty-web cannot read them while the alternate one is shown),
 * so it waits for the program to leave, up to this many times the limit. A
 * full-screen program keeps no scrollback, which is where the growth was.
 */
export const ALTERNATE_SCREEN_COMPACT_FACTOR = 4;

/**
 * Longest an in-place resize (ghostty-web's reflow) may run. A full
 * scrollback reflows well within it, even one dense with toned emoji; but
 * ghostty-web 0.4.0's reflow of rows mixing combining marks and toned emoji can
 * spin for minutes, and a spinning worker parses no output, acks none (its
 * program stalls on a paused PTY) and answers no call (docs/perf-notes.md).
 */
export const RESIZE_BUDGET_MS = 1000;

export interface KeeperOptions {
  module: WebAssembly.Module;
  cols: number;
  rows: number;
  scrollbackBytes: number;
  /** The pane's raw output, replayed into a rebuilt emulator. */
  ring: ByteRing;
  /** After a rebuild: the screen may differ from before, and the pane should say why. */
  onRebuilt: (reason: string) => void;
  /** Tests: compact above this many bytes instead of COMPACT_WASM_BYTES. */
  compactBytes?: number;
}

export class EmulatorKeeper {
  current: GhosttyEmulator;
  rebuilds = 0;
  private lastRebuildAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: KeeperOptions) {
    this.current = this.create(options.cols, options.rows);
  }

  /**
   * Runs an emulator operation; if the WASM instance traps, rebuilds the
   * emulator from the ring buffer so the pane keeps working, and returns
   * undefined. `chunkStart`: where in the ring the output being parsed began
   * (a trap while parsing it replays up to there first).
   */
  safe<T>(operation: (emulator: GhosttyEmulator) => T, chunkStart = this.options.ring.headOffset): T | undefined {
    try {
      return operation(this.current);
    } catch (error) {
      this.rebuild(error, chunkStart);
      return undefined;
    }
  }

  /** Parses `bytes` (which start at `chunkStart` in the ring); returns the emulator's own replies (DSR). */
  write(bytes: Uint8Array, chunkStart: number): string[] {
    return (
      this.safe((emulator) => {
        emulator.write(bytes);
        return emulator.takeResponses();
      }, chunkStart) ?? []
    );
  }

  /**
   * Compacts the emulator if it has grown past COMPACT_WASM_BYTES (on the
   * alternate screen: see ALTERNATE_SCREEN_COMPACT_FACTOR). Only call it
   * between sequences and characters, so the next byte means the same to the
   * new emulator as it would have to the old one. Null when it was not
   * swapped; else how the fresh one carried the scrollback.
   */
  compactIfBloated(): ScrollbackCarried | null {
    const old = this.current;
    const limit = this.options.compactBytes ?? COMPACT_WASM_BYTES;
    const bytes = old.wasmMemoryBytes();
    if (bytes <= limit) return null;
    const onAlternate = this.safe((emulator) => emulator.isAlternateScreen());
    if (onAlternate === undefined) return null; // it trapped, and was rebuilt from the ring
    if (onAlternate && bytes <= limit * ALTERNATE_SCREEN_COMPACT_FACTOR) return null;
    const compaction = this.safe(() => compactEmulator(old, () => this.create(old.cols, old.rows), limit));
    if (!compaction) return null; // reading the old one trapped (and it was rebuilt), or painting failed
    old.dispose();
    this.current = compaction.emulator;
    return compaction.scrollback;
  }

  /**
   * Resizes the emulator in place (reflowing its lines) within
   * RESIZE_BUDGET_MS. A reflow stopped half-way leaves the emulator in an
   * unknown state: it is dropped unfreed (its WASM instance goes with it), and
   * a fresh one of the new size replays the output log, which parsing wraps
   * in bounded time. That loses scrollback older than the log, so it is only
   * the way out, not the way. `atRest`: the output parsed so far ends between
   * sequences and characters (see GhosttyEmulator.resize).
   */
  resize(cols: number, rows: number, { atRest = true, budgetMs = RESIZE_BUDGET_MS }: { atRest?: boolean; budgetMs?: number } = {}): void {
    if (withinBudget(budgetMs, () => this.safe((emulator) => emulator.resize(cols, rows, atRest)), 1).ok) return;
    this.replace(cols, rows, resizeReplayAttempts(this.options.ring, rows));
    this.rebuilds++;
    this.options.onRebuilt(`resizing to ${cols}x${rows} took longer than ${budgetMs} ms`);
  }

  private rebuild(error: unknown, chunkStart: number): void {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const { cols, rows } = this.current;
    this.current.dispose();
    const now = performance.now();
    const storm = now - this.lastRebuildAt < TRAP_STORM_WINDOW_MS;
    this.lastRebuildAt = now;
    this.replace(cols, rows, replayAttempts(this.options.ring, chunkStart, rows, storm));
    this.rebuilds++;
    this.options.onRebuilt(reason);
  }

  /** Makes `current` a fresh emulator holding the first of `attempts` (ring ranges) that replays without a trap. */
  private replace(cols: number, rows: number, attempts: [number, number][]): void {
    const ring = this.options.ring;
    for (const [from, end] of attempts) {
      const candidate = this.create(cols, rows);
      try {
        if (end > from) {
          candidate.write(ring.read(from, end - from).bytes);
          candidate.takeResponses(); // the program already got its answers the first time
        }
        this.current = candidate;
        break;
      } catch (error) {
        logDegraded('rebuilding the emulator from a replay; trying a shorter one, so the pane keeps less history', error);
        candidate.dispose();
      }
    }
  }

  private create(cols: number, rows: number): GhosttyEmulator {
    return new GhosttyEmulator(this.options.module, { cols, rows, scrollbackBytes: this.options.scrollbackBytes });
  }
}
