/**
 * Proof from the screen that typed text was submitted, since a CLI may drop
 * an Enter: after Enter, either the busy marker shows, or the input line the text was typed into is
 * empty again. The input line is found by the cursor, which every CLI seen so
 * far parks at the end of its input even when it hides it.
 *
 * A failed submit (codex reading Enter as a newline inside a paste burst, say)
 * leaves the typed row in place with the cursor on the row below, so the check
 * looks at the cursor row and the one above it.
 */
import type { ScreenState } from './ready-state.js';

export interface ScreenView {
  lines: readonly string[];
  cursor: { x: number; y: number };
  /** What the preset's ready signal makes of these lines (screenState, worked out off this thread). */
  state: ScreenState;
}

/** What the input looked like just before and just after the text was typed. */
export interface TypedInput {
  /** The cursor row before typing (the empty input line). */
  emptyRow: string;
  /** The cursor row once the text had landed (the text, or a paste placeholder). */
  echoRow: string;
  /** Ready text visible before typing and gone after (claude hides its hint while the input has text). */
  readyHidByTyping: boolean;
  /** The agent was already busy before Enter (a message queued mid-turn), so its busy marker proves nothing. */
  busyBeforeTyping?: boolean;
}

export type Confirmation = 'busy' | 'input-cleared' | 'ready-returned';

export function typedInput(before: ScreenView, afterTyping: ScreenView): TypedInput {
  return {
    emptyRow: rowAt(before, 0),
    echoRow: rowAt(afterTyping, 0),
    readyHidByTyping: before.state === 'ready' && afterTyping.state !== 'ready',
    // Busy at any point before Enter: the marker showing afterwards then proves nothing.
    busyBeforeTyping: before.state === 'busy' || afterTyping.state === 'busy',
  };
}

/** Why the screen shows the text was submitted, or null when it does not (yet). */
export function confirmSubmission(typed: TypedInput, now: ScreenView): Confirmation | null {
  const state = now.state;
  if (state === 'busy' && !typed.busyBeforeTyping) return 'busy';
  const echoed = typed.echoRow.trim() !== '' && typed.echoRow !== typed.emptyRow;
  if (echoed && rowAt(now, 0) !== typed.echoRow && rowAt(now, -1) !== typed.echoRow) return 'input-cleared';
  if (typed.readyHidByTyping && state === 'ready') return 'ready-returned';
  return null;
}

function rowAt(view: ScreenView, offset: number): string {
  return view.lines[view.cursor.y + offset] ?? '';
}
