/**
 * What a pane name may be, and how a default one is made from a preset name.
 * Names end up in `[sub-agent:<name>]` tags and `[system] <name> exited` notices
 * typed into other agents, so they stay plain. A preset's display name is free
 * text ("npm run dev", "codex haiku"), so the `<preset>-<n>` default
 * name is built from it with each run of other characters made one "-": a name
 * patterm makes up is always one a caller could have asked for. Pure.
 */

export const PANE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const PANE_NAME_RULE = '1-64 letters, digits, ".", "_" or "-", starting with a letter or digit';

/** Leaves room for "-<n>" within the 64 characters, and keeps tabs short. */
const MAX_BASE_LENGTH = 48;

/**
 * The first candidate that still has letters or digits once made plain, e.g.
 * "git status (watch)" → "git-status-watch", "Café" → "Cafe". Accents are
 * dropped; other scripts and emoji have no plain form, hence the fallbacks.
 */
export function paneNameBase(...candidates: string[]): string {
  for (const candidate of candidates) {
    const base = candidate
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, MAX_BASE_LENGTH)
      .replace(/[._-]+$/, '');
    if (base !== '') return base;
  }
  return 'pane';
}
