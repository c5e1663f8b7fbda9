/**
 * Suspend and resume, as a full-screen program should handle them. Raw mode
 * sends Ctrl-Z to the pane, so patterm itself is only stopped by a signal:
 *
 * - SIGTSTP (`kill -TSTP`): the renderer gives the terminal back (main screen,
 *   modes off, title restored), the tty returns to cooked mode, then patterm
 *   stops itself, so the shell finds the terminal as it left it.
 * - SIGCONT (after that, or after a bare SIGSTOP, during which anything may
 *   have drawn over the screen or reset the tty): raw mode again, the host
 *   modes again, and a repaint of every cell.
 */
import type { Disposable } from '../../shared/events.js';
import type { FromRendererMessage, ToRendererMessage } from '../../shared/renderer-protocol.js';
import { markModesRestored, markTerminalTaken } from './terminal-restore.js';
import { logDegraded } from '../../node/patterm-log.js';

export interface SuspendableRenderer {
  post(message: ToRendererMessage): void;
  onMessage(listener: (message: FromRendererMessage) => void): Disposable;
}

/** How long the renderer gets to give the terminal back before patterm stops anyway (a stuck renderer must not block ^Z). */
const SUSPEND_TIMEOUT_MS = 500;

export class JobControl implements Disposable {
  private suspending = false;
  private readonly onStop = () => void this.suspend();
  private readonly onContinue = () => this.resume();

  constructor(private readonly renderer: SuspendableRenderer) {
    process.on('SIGTSTP', this.onStop);
    process.on('SIGCONT', this.onContinue);
  }

  private async suspend(): Promise<void> {
    if (this.suspending) return;
    this.suspending = true;
    const restored = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), SUSPEND_TIMEOUT_MS);
      const subscription = this.renderer.onMessage((message) => {
        if (message.t === 'suspended') done(true);
      });
      const done = (value: boolean) => {
        clearTimeout(timer);
        subscription.dispose();
        resolve(value);
      };
      this.renderer.post({ t: 'suspend' });
    });
    if (!this.suspending) return; // a SIGCONT came first: stay
    if (restored) markModesRestored();
    setRaw(false);
    // SIGSTOP, not SIGTSTP: the handler for SIGTSTP is this one, and SIGSTOP cannot be caught.
    process.kill(process.pid, 'SIGSTOP');
  }

  private resume(): void {
    this.suspending = false;
    // libuv skips setting a mode it believes is set; the tty may have been reset behind its back.
    // A hang-up also sends SIGCONT: with the terminal gone there is nothing to take back or draw.
    if (!setRaw(false) || !setRaw(true)) return;
    markTerminalTaken();
    this.renderer.post({ t: 'resume' });
  }

  dispose(): void {
    process.off('SIGTSTP', this.onStop);
    process.off('SIGCONT', this.onContinue);
  }
}

/** False when the terminal is gone (hung up); the exit path deals with that. */
function setRaw(raw: boolean): boolean {
  try {
    if (!process.stdin.isTTY) return false;
    process.stdin.setRawMode(raw);
    return true;
  } catch (error) {
    logDegraded(`setting the terminal's raw mode to ${raw}; keys may not reach patterm as typed`, error);
    return false;
  }
}
