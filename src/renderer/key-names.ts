/**
 * Key names, from terminal-kit's xterm key map: the same vocabulary
 * terminal-kit's own input layer emits ("CTRL_K", "UP", "SHIFT_F5", "ALT_B").
 * It names the keys in config.json bindings and lets the palette recognise
 * arrows whichever cursor-key mode the host is in.
 */
import { createRequire } from 'node:module';

/** terminal-kit's xterm key map (termconfig/xterm.js, CommonJS). */
interface XtermConfig {
  /** Key name (e.g. "CTRL_K", "UP", "SHIFT_F5") → the byte sequence(s) an xterm-compatible terminal sends. */
  keymap: Record<string, string | string[] | Record<string, unknown>>;
}

/**
 * Loaded on first use: the main thread needs it only to check a config file's
 * key bindings, and loading it (string-kit with it) would delay the main
 * thread's first frame. Not named `require`, so bundlers
 * leave it to Node.
 */
const requireHere = createRequire(import.meta.url);
let tables: { nameBySequence: Map<string, string>; knownNames: Set<string> } | null = null;

function keyTables(): { nameBySequence: Map<string, string>; knownNames: Set<string> } {
  if (tables) return tables;
  const xterm = requireHere('terminal-kit/lib/termconfig/xterm.js') as XtermConfig;
  const nameBySequence = new Map<string, string>();
  const knownNames = new Set<string>();
  // The key map is a prototype chain of objects; for..in walks inherited entries too.
  for (const name in xterm.keymap) {
    const value = xterm.keymap[name];
    const sequences = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    if (sequences.length === 0) continue; // pattern entries (mouse, cursor reports) are not keys
    knownNames.add(name);
    // First name wins: terminal-kit lists ENTER, TAB and BACKSPACE before their CTRL_ aliases.
    for (const sequence of sequences) if (!nameBySequence.has(sequence)) nameBySequence.set(sequence, name);
  }
  tables = { nameBySequence, knownNames };
  return tables;
}

/** The key's name, or null for a sequence terminal-kit does not know. */
export function keyName(sequence: string): string | null {
  const known = keyTables().nameBySequence.get(sequence);
  if (known) return known;
  const chars = [...sequence];
  if (chars.length === 1 && sequence >= ' ') return sequence;
  if (chars.length === 2 && sequence[0] === '\x1b' && chars[1] >= ' ') return `ALT_${chars[1].toUpperCase()}`;
  return null;
}

/** True for names a binding may use: terminal-kit key names, single characters and ALT_<char>. */
export function isKnownKeyName(name: string): boolean {
  if (keyTables().knownNames.has(name)) return true;
  const chars = [...name];
  if (chars.length === 1 && name >= ' ') return true;
  return /^ALT_.$/u.test(name);
}
