/**
 * The host-terminal modes patterm turns on, and the exact inverse that puts the
 * terminal back. Both threads use these: the renderer on start, the bridge on
 * exit and on a crash (when the renderer may already be gone).
 */

const ESC = '\x1b';

/**
 * XTWINOPS 22: saves the window title on the terminal's title stack, so exit can
 * put the user's own title back. Sent once per take-over, apart from
 * ENTER_HOST_MODES, which is also re-sent to repair the screen (a push there
 * would grow the stack).
 */
export const PUSH_TITLE = `${ESC}[22;0t`;

/** Entered when the renderer starts, and again after a resume or a "Redraw screen". */
export const ENTER_HOST_MODES = [
  `${ESC}[?1049h`, // alternate screen: the user's scrollback is untouched when we leave
  `${ESC}[?7l`, // no autowrap: writing the bottom-right cell must never scroll the screen
  `${ESC}[?25l`, // cursor hidden until a frame places it
  `${ESC}[?1000h${ESC}[?1002h${ESC}[?1006h`, // clicks and drags, SGR-encoded (no 223-column limit)
  `${ESC}[?2004h`, // bracketed paste, so a paste containing Ctrl-K cannot open the palette
  `${ESC}[H${ESC}[2J`,
].join('');

/**
 * Undoes everything the renderer or a mirrored pane mode may have turned on.
 * Safe when only part of ENTER_HOST_MODES was sent. Sent once per take-over
 * (terminal-restore.ts): a second one would blank the title the first restored.
 */
export const RESTORE_HOST_MODES = [
  `${ESC}[?2026l`, // a crash mid-frame must not leave the terminal holding its updates
  `${ESC}[0m`,
  `${ESC}[?1003l${ESC}[?1002l${ESC}[?1000l${ESC}[?1006l${ESC}[?1015l${ESC}[?1005l`,
  `${ESC}[?2004l`,
  `${ESC}[?1004l`,
  `${ESC}[?1l${ESC}>`, // normal cursor keys and keypad
  `${ESC}[?7h`,
  `${ESC}[0 q`, // the terminal's own cursor shape
  `${ESC}[?25h`,
  `${ESC}[?1049l`,
  // Blank the title patterm set, then pop the user's: a terminal without a title
  // stack is left with no title rather than a stale "… — patterm".
  `${ESC}]2;\x07`,
  `${ESC}[23;0t`,
].join('');

/** DEC 2026: the terminal shows the frame all at once, never half-drawn. */
export const SYNC_BEGIN = `${ESC}[?2026h`;
export const SYNC_END = `${ESC}[?2026l`;
