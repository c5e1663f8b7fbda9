/**
 * One way to say how a process ended, used by exit notifications, kill and
 * list_children. A signal death is reported with the shell's 128+N code so
 * "exited with code N" always has a number.
 */
import { constants } from 'node:os';
import type { ProcessInfo } from '../../shared/pane-types.js';

export function exitCodeOf(process: ProcessInfo): number | null {
  if (process.exitCode !== null) return process.exitCode;
  if (process.signal) {
    const number = (constants.signals as Record<string, number>)[process.signal];
    if (number !== undefined) return 128 + number;
  }
  return null;
}

/** "code 0", or "code 143 (SIGTERM)". */
export function describeExit(process: ProcessInfo): string {
  const code = exitCodeOf(process);
  const codeText = code === null ? 'an unknown code' : `code ${code}`;
  return process.signal ? `${codeText} (${process.signal})` : codeText;
}
