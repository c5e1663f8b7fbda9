/**
 * Which dialog a pane waits on, so that each dialog is one wait with its own
 * `since` (agent-state.ts): one that follows another on the same screen is a
 * new wait even though the state stays waiting_permission; one redrawn,
 * typed into, or briefly lost from a screen read is the same wait; one that
 * was answered and still shows is not waited on again until the program had
 * time to take the answer.
 */
import { dialogIdentity, sameDialog } from './dialog-identity.js';

/**
 * How long an answered dialog that still shows counts as answered. Past it the
 * answer did not take, or the program asks the very same thing again, and
 * either way it waits for an answer again.
 */
export const ANSWER_TAKE_MS = 5000;
/**
 * A dialog that leaves the screen and is back within this long, unanswered,
 * was lost from a read or two (a redraw read half-way), not asked again.
 */
export const DIALOG_GAP_MS = 1500;

/** The part of a state this needs: its name, since when, and the dialog's text if a pattern found one. */
export interface WaitView {
  state: string;
  since: number;
  dialog?: { text: string };
}

export class DialogWaits {
  private answered: { identity: string; at: number } | null = null;
  /** The last unanswered dialog that left the screen: it gets its wait back if it returns at once. */
  private left: { state: string; since: number; text: string; at: number } | null = null;

  constructor(private readonly waiting: (state: string) => boolean) {}

  /** `text` was answered at `now`. */
  noteAnswered(text: string, now: number): void {
    this.answered = { identity: dialogIdentity(text), at: now };
    this.left = null;
  }

  /** Whether `text` on screen is the dialog answered last, not yet taken; forgets the answer once another dialog shows or it lapses. */
  isAnswered(text: string, now: number): boolean {
    const answered = this.answered;
    if (answered && now - answered.at < ANSWER_TAKE_MS && dialogIdentity(text) === answered.identity) return true;
    this.answered = null;
    return false;
  }

  /** A screen without any dialog: the answered one has gone. */
  noteNoDialog(): void {
    this.answered = null;
  }

  /** When the state `next`, judged at `now` after `current`, began. */
  sinceFor(current: WaitView, next: Omit<WaitView, 'since'>, now: number): number {
    if (next.state === current.state) {
      const replaced = this.waiting(next.state) && next.dialog && current.dialog && !sameDialog(current.dialog.text, next.dialog.text);
      return replaced ? now : current.since;
    }
    if (this.waiting(current.state) && current.dialog) this.left = { state: current.state, since: current.since, text: current.dialog.text, at: now };
    const left = this.left;
    if (left && next.dialog && left.state === next.state && now - left.at <= DIALOG_GAP_MS && sameDialog(left.text, next.dialog.text)) return left.since;
    return now;
  }
}
