/**
 * Keeps the host terminal's window title on the focused pane, the way tmux
 * (set-titles) and screen do: "<the pane's own title> — patterm", or the
 * pane's name when its program set no title. The previous title is pushed on
 * the terminal's title stack at start and popped on exit (see host-modes.ts).
 */
import type { UiPane } from '../shared/renderer-protocol.js';

/** Shown after the pane's title, so the window list tells patterm windows apart. */
export const TITLE_SUFFIX = ' — patterm';
/** The title when nothing is focused (the empty canvas). */
export const APP_TITLE = 'patterm';
/** Titles are one line in every window manager; a runaway OSC must not make a huge one. */
const MAX_TITLE_CHARS = 200;

/** What the window title should read with this pane focused. */
export function hostTitleFor(pane: UiPane | null): string {
  if (!pane) return APP_TITLE;
  const own = pane.title.trim() || pane.name;
  return own + TITLE_SUFFIX;
}

/** OSC 2 with the title; control characters removed so a hostile title cannot end the sequence early. */
export function setTitleSequence(title: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = [...title.replace(/[\x00-\x1f\x7f-\x9f]/g, '')].slice(0, MAX_TITLE_CHARS).join('');
  return `\x1b]2;${clean}\x07`;
}

export class HostTitle {
  private current: string | null = null;

  /** The sequence that brings the window title in line with the focus (empty when it already is). */
  update(pane: UiPane | null): string {
    const wanted = hostTitleFor(pane);
    if (wanted === this.current) return '';
    this.current = wanted;
    return setTitleSequence(wanted);
  }

  /** Forgets what the terminal shows, so the next update sets the title again (after a resume). */
  invalidate(): void {
    this.current = null;
  }
}
