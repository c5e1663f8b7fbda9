/**
 * patterm's diagnostics. Never stdout or stderr while the TUI owns the
 * terminal: lines go to the file named by PATTERM_LOG, or nowhere.
 */
import { appendFileSync } from 'node:fs';

export function pattermLog(text: string): void {
  const path = process.env.PATTERM_LOG;
  if (!path) return;
  try {
    appendFileSync(path, `${new Date().toISOString()} ${text}\n`);
  } catch {
    // A log that cannot be written must not take patterm down.
  }
}
