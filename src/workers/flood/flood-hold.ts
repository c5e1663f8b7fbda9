/**
 * Between two skims (backlog-skim.ts), a plain flood's output waits in the
 * PTY host instead of going to the emulator.
 *
 * A skim makes the emulator parse only the lines that can still be seen: the
 * last screenful and the scrollback's worth before it.
 * Once those are handed on, parsing what arrives next is wasted too if the
 * flood goes on, since the next skim will cut it away. So the flood is held:
 * nothing more is handed on until enough has piled up for the next skim to
 * pay (HOLD_TARGET_BYTES), the screen is due a refresh (HOLD_MAX_MS), or the
 * program stops writing (HOLD_QUIET_MS). Then the next skim cuts, and its kept
 * lines are handed on. The PTY is read throughout; only the parse waits.
 * Holds make long-lined floods faster and halve their CPU; floods limited by
 * the PTY read gain nothing (figures: docs/perf-notes.md).
 */
import type { Disposable } from '../../shared/events.js';

/**
 * Enough backlog for a hold to end early in a skim: several times the lines
 * a long-lined flood keeps at common sizes, so its parse is a small part of
 * its output, and the plan and scan of the skim (on the PTY host thread,
 * during which the PTY is not read) stay short.
 */
export const HOLD_TARGET_BYTES = 6 * 1024 * 1024;
/**
 * The longest a held flood's screen goes without an update, so a flood still
 * scrolls twenty times a second; a longer hold saves little parsing at half
 * the screen rate (docs/perf-notes.md).
 */
export const HOLD_MAX_MS = 50;
/**
 * A flood whose program has not written for this long has stopped, or paused
 * (a build between steps): what it wrote is handed on and parsed at once.
 */
export const HOLD_QUIET_MS = 5;

export class FloodHold implements Disposable {
  /** A skim happened in this flood and the flood has not let up since. */
  private engagedFlag = false;
  /** Of the bytes the last skim kept, those not yet handed on: they are parsed before the next hold. */
  private releasing = 0;
  private heldSince = 0;
  private lastReadAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `recheck` runs HOLD_QUIET_MS into a hold, so a flood that stopped is not left unparsed. */
  constructor(
    private readonly recheck: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** While engaged the PTY host keeps reading up to HOLD_TARGET_BYTES past its usual flow-control watermark. */
  get engaged(): boolean {
    return this.engagedFlag;
  }

  /** The last skim's kept lines are still being handed on; no new skim until they are. */
  get releasingKept(): boolean {
    return this.releasing > 0;
  }

  /** Handing on stops here: the kept lines are out, and the flood is held. */
  get waitsForBacklog(): boolean {
    return this.engagedFlag && this.releasing === 0;
  }

  read(): void {
    this.lastReadAt = this.now();
  }

  /** A skim cut the backlog; `keptBytes` remain, to be parsed before the next hold. */
  skimmed(keptBytes: number): void {
    this.engagedFlag = true;
    this.releasing = keptBytes;
    this.heldSince = 0;
  }

  handedOn(bytes: number): void {
    if (this.releasing > 0) this.releasing = Math.max(0, this.releasing - bytes);
  }

  /**
   * Whether to hand nothing on now, with `backlogBytes` waiting. `allowed`:
   * the conditions a skim needs still hold (a parse turn no other flood waits
   * for, no recent input, nobody waiting on the screen). When the answer is
   * no, the hold is over: the caller skims if it can, which engages the next.
   */
  holds(backlogBytes: number, allowed: boolean): boolean {
    if (!this.engagedFlag || this.releasing > 0) return false;
    const now = this.now();
    if (this.heldSince === 0) this.heldSince = now;
    if (allowed && backlogBytes < HOLD_TARGET_BYTES && now - this.heldSince < HOLD_MAX_MS && now - this.lastReadAt < HOLD_QUIET_MS) {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.recheck();
      }, HOLD_QUIET_MS);
      return true;
    }
    this.engagedFlag = false;
    this.heldSince = 0;
    return false;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.engagedFlag = false;
    this.releasing = 0;
  }
}
