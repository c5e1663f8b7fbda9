import { DEFAULT_PANE_LOCALE } from '../../src/main/panes/pane-environment.js';

/**
 * The locale the programs tests run get, whatever the test's own: a machine with none set (a bare
 * CI shell) runs them in the C locale, where vim and less write UTF-8 text as raw bytes, readline
 * moves over it byte by byte and printf does not expand \u escapes, so the screens checked would be
 * about the locale, not about patterm.
 */
export const UTF8_LOCALE = { LANG: DEFAULT_PANE_LOCALE, LC_ALL: DEFAULT_PANE_LOCALE };
