/**
 * Gives the host terminal back: cooked mode, main screen, cursor visible,
 * mouse reporting and bracketed paste off. Synchronous, so it also works from
 * an 'exit' handler or after an uncaught exception.
 *
 * The modes are restored exactly once: a second "leave the alternate screen"
 * would move the cursor back to where patterm started and overwrite whatever
 * was printed since (the crash report, the shell prompt).
 */
import { writeSync } from 'node:fs';
import { RESTORE_HOST_MODES } from '../../renderer/host-modes.js';
import { logIgnored } from '../../node/patterm-log.js';

let modesTaken = false;
let rawTaken = false;

/** Called once the TUI has changed the terminal, so exit paths know there is something to undo. */
export function markTerminalTaken(): void {
  modesTaken = true;
  rawTaken = true;
}

/** The renderer thread restored the host modes itself (its last write). */
export function markModesRestored(): void {
  modesTaken = false;
}

export function restoreHostTerminal(): void {
  if (modesTaken) {
    modesTaken = false;
    try {
      writeSync(1, RESTORE_HOST_MODES);
    } catch (error) {
      // The terminal may be gone (SIGHUP); nothing left to restore then.
      logIgnored("restoring the host terminal's modes", error);
    }
  }
  if (rawTaken) {
    rawTaken = false;
    try {
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
    } catch (error) {
      // Same: a closed terminal cannot be put back in cooked mode.
      logIgnored('putting the host terminal back in cooked mode', error);
    }
  }
}
