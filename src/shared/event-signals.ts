/**
 * What the scanner's events (sequence-scanner.ts) tell the coordinator: a
 * bell, a cursor shape, a title (OSC 0/2), a shell-integration mark (OSC 133),
 * a clipboard write (OSC 52), progress (OSC 9;4) or a notification (OSC 9/777). Queries are not here: answering them needs
 * the emulator's state (query-replies.ts).
 */
import type { ScannedEvent } from './sequence-scanner.js';
import type { PaneSignal } from './pane-types.js';
import { terminalSignalFromOsc } from './agent-state.js';
import { parseShellMark } from './shell-marks.js';

/** The signal an event raises, or null (a query, an OSC patterm does not act on, a malformed mark). `offset`: the ring's head as the event's batch ends. */
export function signalForEvent(event: ScannedEvent, offset: number): PaneSignal | null {
  if (event.type === 'bell') return { type: 'bell' };
  if (event.type === 'cursor-shape') return { type: 'cursor-shape', shape: event.shape };
  if (event.type === 'query') return null;
  if (event.code === 0 || event.code === 2) return { type: 'title', title: event.data };
  if (event.code === 133) {
    const parsed = parseShellMark(event.data);
    const mark = parsed?.mark;
    if (mark !== 'A' && mark !== 'B' && mark !== 'C' && mark !== 'D') return null;
    return { type: 'prompt-mark', mark, exitCode: parsed!.exitCode, offset };
  }
  if (event.code === 52) {
    const separator = event.data.indexOf(';');
    if (separator === -1) return null;
    const base64 = event.data.slice(separator + 1);
    // "?" is a clipboard read request; answering would leak the user's clipboard.
    if (base64 === '?') return null;
    return { type: 'clipboard', selection: event.data.slice(0, separator), base64 };
  }
  if (event.code === 9 || event.code === 777) return terminalSignalFromOsc(event.code, event.data);
  return null;
}
