/**
 * Re-encodes a host mouse report for the focused pane: moved into the pane's
 * own coordinates and written in the encoding and tracking level the program
 * asked for, exactly as a terminal showing only that program would send it.
 */
import type { CellFrame } from '../shared/pane-types.js';
import type { MouseReport } from './input-tokenizer.js';

const MOTION = 32;
const WHEEL = 64;
const NO_BUTTON = 3;
/** Legacy encoding adds 32 to a 1-based coordinate and must fit one byte. */
const LEGACY_MAX_COORDINATE = 255 - 32;

export function paneWantsMouse(modes: CellFrame['modes']): boolean {
  return modes.mouseX10 || modes.mouseButtonEvent || modes.mouseAnyEvent;
}

/** The bytes to send the pane, or null when its mouse mode does not want this event. */
export function encodeMouseForPane(report: MouseReport, x: number, y: number, modes: CellFrame['modes']): string | null {
  if (!paneWantsMouse(modes)) return null;
  const isMotion = (report.code & MOTION) !== 0 && (report.code & WHEEL) === 0;
  if (isMotion) {
    const buttonHeld = (report.code & 3) !== NO_BUTTON;
    if (!modes.mouseAnyEvent && !(modes.mouseButtonEvent && buttonHeld)) return null;
  }
  if (modes.mouseSgr) return `\x1b[<${report.code};${x + 1};${y + 1}${report.release ? 'm' : 'M'}`;
  if (x + 1 > LEGACY_MAX_COORDINATE || y + 1 > LEGACY_MAX_COORDINATE) return null;
  // Legacy encoding cannot say which button was released: a release is button 3.
  const code = report.release ? (report.code & ~3) | NO_BUTTON : report.code;
  return `\x1b[M${String.fromCharCode(32 + code, 33 + x, 33 + y)}`;
}
