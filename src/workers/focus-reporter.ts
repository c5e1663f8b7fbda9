/**
 * Focus reporting (DEC mode 1004) for one pane, as a multiplexer does it: the
 * pane's program is told when the user's view moves to it (`CSI I`) or away
 * from it (`CSI O`), not only when the whole host window gains or loses focus
 * (that part is the renderer's, input-router.ts). An agent CLI uses this to
 * know whether anyone is looking: Claude Code, for one, notifies (rings) when it
 * finishes while unfocused, which patterm shows as a bell on the pane's tab.
 *
 * When a program turns reporting on, it is told the current state at once:
 * tmux does this for the focused pane; a pane nobody shows is told `CSI O`, since
 * otherwise a program started in the background would believe itself watched
 * until it had been shown once.
 */
export const FOCUS_IN = '\x1b[I';
export const FOCUS_OUT = '\x1b[O';

export class FocusReporter {
  private reporting = false;
  private shown = false;

  /** `send`: bytes for the program, as if typed (the worker's reply path to the PTY). */
  constructor(private readonly send: (bytes: string) => void) {}

  /** The TUI started (true) or stopped (false) showing this pane. */
  setShown(shown: boolean): void {
    if (shown === this.shown) return;
    this.shown = shown;
    if (this.reporting) this.send(shown ? FOCUS_IN : FOCUS_OUT);
  }

  /** The program's mode 1004 as the emulator has it now; checked after output, so a change is seen within a screen tick. */
  onReportingMode(enabled: boolean): void {
    if (enabled === this.reporting) return;
    this.reporting = enabled;
    if (enabled) this.send(this.shown ? FOCUS_IN : FOCUS_OUT);
  }
}
