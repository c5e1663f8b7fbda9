/**
 * Focus reporting (DEC mode 1004) for one pane, as a multiplexer does it: the
 * pane's program is told when the user's view moves to it (`CSI I`) or away
 * from it (`CSI O`), not only when the whole host window gains or loses focus
 * (that part is the renderer's, input-router.ts). An agent CLI uses this to
 * know whether anyone is looking: Claude Code, for one, notifies (rings) when it
 * finishes while unfocused, which patterm shows as a bell on the pane's tab.
 *
 * When a program turns reporting on, it is told the current state: tmux does
 * this for the focused pane; a pane nobody shows is told `CSI O`, since
 * otherwise a program started in the background would believe itself watched
 * until it had been shown once. That `CSI O` waits HIDDEN_REPORT_GRACE_MS for
 * the pane to be shown, as a new session's pane usually is just after its
 * program starts: then the program hears only `CSI I`.
 */
export const FOCUS_IN = '\x1b[I';
export const FOCUS_OUT = '\x1b[O';

/**
 * The TUI shows a new session's pane once the spawn has answered, and its
 * program may turn reporting on before that: with the test suite running
 * beside it, a program heard `CSI O` and `CSI I` in one read. A background
 * pane's program hears that it is unfocused this much later, which nothing it
 * does in its first moments depends on.
 */
export const HIDDEN_REPORT_GRACE_MS = 250;

export class FocusReporter {
  private reporting = false;
  private shown = false;
  /** The `CSI O` owed to a program that turned reporting on while hidden, until the grace is over. */
  private owedOut: ReturnType<typeof setTimeout> | null = null;

  /** `send`: bytes for the program, as if typed (the worker's reply path to the PTY). */
  constructor(
    private readonly send: (bytes: string) => void,
    private readonly hiddenGraceMs = HIDDEN_REPORT_GRACE_MS,
  ) {}

  /** The TUI started (true) or stopped (false) showing this pane. */
  setShown(shown: boolean): void {
    if (shown === this.shown) return;
    this.shown = shown;
    if (!this.reporting) return;
    // Shown within the grace: the program was never told it is hidden, so its first report is this one.
    this.cancelOwedOut();
    this.send(shown ? FOCUS_IN : FOCUS_OUT);
  }

  /** The program's mode 1004 as the emulator has it now; checked after output, so a change is seen within a screen tick. */
  onReportingMode(enabled: boolean): void {
    if (enabled === this.reporting) return;
    this.reporting = enabled;
    this.cancelOwedOut();
    if (!enabled) return;
    if (this.shown) this.send(FOCUS_IN);
    else {
      this.owedOut = setTimeout(() => {
        this.owedOut = null;
        this.send(FOCUS_OUT);
      }, this.hiddenGraceMs);
      this.owedOut.unref?.();
    }
  }

  private cancelOwedOut(): void {
    if (!this.owedOut) return;
    clearTimeout(this.owedOut);
    this.owedOut = null;
  }
}
