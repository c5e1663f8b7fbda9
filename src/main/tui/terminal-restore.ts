/**
 * Gives the host terminal back: cooked mode, main screen, cursor visible,
 * mouse reporting and bracketed paste off. Synchronous, so it also works from
 * an 'exit' handler or after an uncaught exception.
 */
import { writeSync } from 'node:fs';
import { RESTORE_HOST_MODES } from '../../renderer/host-modes.js';

let needed = false;

/** Called once the TUI has changed the terminal, so exit paths know there is something to undo. */
export function markTerminalTaken(): void {
  needed = true;
}

export function restoreHostTerminal(): void {
  if (!needed) return;
  needed = false;
  try {
    writeSync(1, RESTORE_HOST_MODES);
  } catch {
    // The terminal may be gone (SIGHUP); nothing left to restore then.
  }
  try {
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
  } catch {
    // Same: a closed terminal cannot be put back in cooked mode.
  }
}
