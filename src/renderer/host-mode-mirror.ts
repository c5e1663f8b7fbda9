/**
 * Mirrors the focused pane's input modes onto the host terminal, so the host
 * sends what the program expects: arrow keys in application mode (DECCKM) for
 * full-screen programs, motion reports when the program tracks all motion, and
 * focus reports when it asked for them. Clicks and pastes stay on for patterm's
 * own use (see ENTER_HOST_MODES).
 */
import type { CellFrame } from '../shared/pane-types.js';

interface MirroredModes {
  applicationCursor: boolean;
  anyMotion: boolean;
  focusEvents: boolean;
}

const OFF: MirroredModes = { applicationCursor: false, anyMotion: false, focusEvents: false };

const SEQUENCES: Record<keyof MirroredModes, number> = { applicationCursor: 1, anyMotion: 1003, focusEvents: 1004 };

export class HostModeMirror {
  /** What the host has; null when unknown (after a resume), so every mode is sent. */
  private current: MirroredModes | null = { ...OFF };

  /** Forgets what the host has: something else may have set its modes (a shell while patterm was stopped). */
  invalidate(): void {
    this.current = null;
  }

  /** The sequences that bring the host in line with the focused pane (empty when nothing changes). */
  update(frame: CellFrame | null): string {
    const wanted: MirroredModes = frame
      ? { applicationCursor: frame.modes.applicationCursor, anyMotion: frame.modes.mouseAnyEvent, focusEvents: frame.modes.focusEvents }
      : OFF;
    let out = '';
    for (const key of Object.keys(SEQUENCES) as Array<keyof MirroredModes>) {
      if (this.current && wanted[key] === this.current[key]) continue;
      out += `\x1b[?${SEQUENCES[key]}${wanted[key] ? 'h' : 'l'}`;
      // xterm keeps one mouse-tracking level: turning 1003 off turns tracking off, so restore drags.
      if (key === 'anyMotion' && !wanted[key]) out += '\x1b[?1002h';
    }
    this.current = wanted;
    return out;
  }
}
