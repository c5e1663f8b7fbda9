/**
 * Named keys as the bytes a terminal sends for them. Arrow, Home and End keys
 * depend on DECCKM (application cursor mode), which full-screen programs turn on.
 */
const PLAIN_KEYS: Record<string, string> = {
  enter: '\r',
  return: '\r',
  tab: '\t',
  'shift-tab': '\x1b[Z',
  escape: '\x1b',
  esc: '\x1b',
  backspace: '\x7f',
  delete: '\x1b[3~',
  insert: '\x1b[2~',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
  space: ' ',
  f1: '\x1bOP',
  f2: '\x1bOQ',
  f3: '\x1bOR',
  f4: '\x1bOS',
  f5: '\x1b[15~',
  f6: '\x1b[17~',
  f7: '\x1b[18~',
  f8: '\x1b[19~',
  f9: '\x1b[20~',
  f10: '\x1b[21~',
  f11: '\x1b[23~',
  f12: '\x1b[24~',
};

const CURSOR_KEYS: Record<string, string> = { up: 'A', down: 'B', right: 'C', left: 'D', home: 'H', end: 'F' };

export const KEY_NAMES: readonly string[] = [
  ...Object.keys(PLAIN_KEYS),
  ...Object.keys(CURSOR_KEYS),
  'ctrl-a … ctrl-z',
  'ctrl-[',
  'ctrl-]',
  'ctrl-\\',
  'alt-<char>',
];

/** Returns the bytes for a key name, or null when the name is not known. */
export function keyToBytes(name: string, applicationCursor = false): string | null {
  const key = name.trim().toLowerCase();
  if (key in PLAIN_KEYS) return PLAIN_KEYS[key];
  if (key in CURSOR_KEYS) return (applicationCursor ? '\x1bO' : '\x1b[') + CURSOR_KEYS[key];
  const ctrl = /^(?:ctrl|c)-(.)$/.exec(key);
  if (ctrl) {
    const ch = ctrl[1];
    if (ch >= 'a' && ch <= 'z') return String.fromCharCode(ch.charCodeAt(0) - 96);
    const specials: Record<string, string> = { '[': '\x1b', ']': '\x1d', '\\': '\x1c', '^': '\x1e', _: '\x1f', ' ': '\x00', '@': '\x00' };
    return specials[ch] ?? null;
  }
  const alt = /^(?:alt|meta|m)-(.)$/.exec(name.trim());
  if (alt) return '\x1b' + alt[1];
  return null;
}

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/**
 * Wraps text as a bracketed paste. Any paste markers inside the text are removed
 * so the content cannot end the paste early and smuggle in keystrokes.
 */
export function bracketedPaste(text: string): string {
  let body = text;
  // Removing one marker can join the bytes around it into another ("\x1b[20" + marker + "1~"): repeat until none is left.
  while (body.includes(PASTE_START) || body.includes(PASTE_END)) body = body.split(PASTE_END).join('').split(PASTE_START).join('');
  return PASTE_START + body + PASTE_END;
}
