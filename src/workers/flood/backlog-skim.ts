/**
 * When a pane's unparsed backlog in the PTY host is skimmed (skim-plan.ts):
 * the lines of a flood that would scroll out of the scrollback before anyone
 * could see them go to the output ring but not through the emulator.
 *
 * A backlog only builds up while the pane's worker parses slower than the
 * PTY is read, so a pane that keeps up never skims, and an echo or a redraw
 * never does.
 */
import type { ChunkQueue } from '../../shared/chunk-queue.js';
import { linesThatFillScrollback, planSkim, type SkimPlan } from '../../shared/skim-plan.js';

/**
 * A backlog below this is parsed as it is: it could not hold the lines a skim
 * must keep at common widths, and a flood's backlog in the PTY host rarely
 * grows much past it, so a higher bar would rarely be met
 * (figures: docs/perf-notes.md).
 */
const SKIM_MIN_BACKLOG_BYTES = 512 * 1024;
/** A skim shorter than this is not worth its own message and plan. */
const SKIM_MIN_BYTES = 64 * 1024;
/**
 * After a plan found nothing to skim, this much new output must arrive before
 * the next try: a try searches the whole backlog, and output that
 * is not plain (a full-screen program's redraws) fails every try.
 */
export const SKIM_RETRY_BYTES = 128 * 1024;
/**
 * Each try in a row that finds nothing doubles the wait before the next, up
 * to this. A try searches the whole backlog, so a flood that is never plain
 * (`scroll-regions`) was searched over and over on the thread that reads the
 * PTY (docs/perf-notes.md). Capped so that a flood
 * which turns plain (a build's progress
 * screen, then its log) is skimmed within a few MiB.
 */
export const SKIM_RETRY_MAX_BYTES = 4 * 1024 * 1024;

export interface SkimGeometry {
  cols: number;
  rows: number;
  scrollbackBytes: number;
}

export class BacklogSkim {
  private retryAfterPushed = 0;
  private retryBytes = SKIM_RETRY_BYTES;

  /**
   * A plan for the front of `pending`, or null. `startsBetweenSequences`
   * (asked only when a plan is worth trying) tells whether the stream handed
   * on so far ends between sequences, with no scroll margins set.
   */
  plan(pending: ChunkQueue, geometry: SkimGeometry, startsBetweenSequences: () => boolean): SkimPlan | null {
    if (pending.bytes < SKIM_MIN_BACKLOG_BYTES || pending.pushedTotal < this.retryAfterPushed) return null;
    const keepLines = linesThatFillScrollback(geometry.cols, geometry.rows, geometry.scrollbackBytes);
    const plan = startsBetweenSequences() ? planSkim(asBuffer(pending.peekAll()), keepLines, SKIM_MIN_BYTES) : null;
    if (plan) {
      this.retryBytes = SKIM_RETRY_BYTES;
    } else {
      this.retryAfterPushed = pending.pushedTotal + this.retryBytes;
      this.retryBytes = Math.min(2 * this.retryBytes, SKIM_RETRY_MAX_BYTES);
    }
    return plan;
  }
}

/**
 * The same bytes, uncopied, as a Buffer: its indexOf and lastIndexOf are
 * memchr, many times faster than Uint8Array's, and the plan is mostly those
 * searches.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
