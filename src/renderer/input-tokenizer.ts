/**
 * Splits the bytes the host terminal sends into keys, mouse reports, focus
 * reports and pastes, keeping each key's exact bytes so that what goes on to a
 * pane is exactly what the user's terminal sent.
 *
 * Sequences may be split across reads; an incomplete one waits for more input
 * and `flush()` (called after a short quiet period) releases it as typed, which
 * is how a lone Escape key is told apart from the start of a sequence.
 */
import { keyName } from './key-names.js';

export type InputToken =
  | { type: 'key'; sequence: string; name: string | null }
  | { type: 'paste'; text: string }
  | { type: 'mouse'; mouse: MouseReport }
  | { type: 'focus'; focused: boolean };

export interface MouseReport {
  /** The xterm button code: low bits button (3 = none), +4 shift, +8 alt, +16 ctrl, +32 motion, +64 wheel. */
  code: number;
  /** 0-based host cell. */
  x: number;
  y: number;
  release: boolean;
}

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** Longest CSI we wait for; anything longer is garbage and is released as typed. */
const MAX_CSI_LENGTH = 64;

type Scan = { token: InputToken; length: number } | 'incomplete';

export class InputTokenizer {
  private pending = '';
  private readonly decoder = new TextDecoder('utf-8');

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  feed(bytes: Uint8Array): InputToken[] {
    this.pending += this.decoder.decode(bytes, { stream: true });
    return this.drain(false);
  }

  /** Releases an incomplete sequence as a key (e.g. a lone Escape). */
  flush(): InputToken[] {
    return this.drain(true);
  }

  private drain(force: boolean): InputToken[] {
    const tokens: InputToken[] = [];
    while (this.pending.length > 0) {
      const scan = this.scan(this.pending);
      if (scan === 'incomplete') {
        if (!force) break;
        if (this.pending.startsWith(PASTE_START)) {
          // A paste still arriving (a slow link, a terminal that pastes in chunks): what came so far
          // goes as pasted text, and the paste stays open, so the rest is pasted text too, not keys.
          const body = this.pending.slice(PASTE_START.length);
          const held = partialEndLength(body);
          if (body.length > held) tokens.push({ type: 'paste', text: body.slice(0, body.length - held) });
          this.pending = PASTE_START + body.slice(body.length - held);
          break;
        }
        // Escape alone (or ESC + an unfinished sequence): the Escape key, then the rest as typed.
        tokens.push(key(ESC));
        this.pending = this.pending.slice(1);
        continue;
      }
      // An empty paste (all of it went out before a pause) has nothing to deliver.
      if (scan.token.type !== 'paste' || scan.token.text !== '') tokens.push(scan.token);
      this.pending = this.pending.slice(scan.length);
    }
    return tokens;
  }

  private scan(text: string): Scan {
    if (text[0] !== ESC) {
      const char = String.fromCodePoint(text.codePointAt(0)!);
      return { token: key(char), length: char.length };
    }
    if (text.length === 1) return 'incomplete';
    const second = text[1];
    if (second === '[') return this.scanCsi(text);
    if (second === 'O') {
      if (text.length < 3) return 'incomplete';
      return { token: key(text.slice(0, 3)), length: 3 };
    }
    if (second === ESC) return { token: key(ESC), length: 1 };
    // Alt + a character: ESC then the character.
    const char = String.fromCodePoint(text.codePointAt(1)!);
    return { token: key(ESC + char), length: 1 + char.length };
  }

  private scanCsi(text: string): Scan {
    if (text.startsWith(PASTE_START)) {
      const end = text.indexOf(PASTE_END, PASTE_START.length);
      if (end === -1) return 'incomplete';
      return { token: { type: 'paste', text: text.slice(PASTE_START.length, end) }, length: end + PASTE_END.length };
    }
    if (text[2] === 'M') {
      // Legacy X10 mouse: three raw bytes follow, each offset by 32.
      const chars = [...text.slice(3, 6)];
      if (chars.length < 3) return 'incomplete';
      const [b, x, y] = chars.map((c) => c.codePointAt(0)! - 32);
      const length = 3 + chars.join('').length;
      return { token: { type: 'mouse', mouse: { code: b, x: x - 1, y: y - 1, release: (b & 3) === 3 && (b & 64) === 0 } }, length };
    }
    let end = 2;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code >= 0x40 && code <= 0x7e) break;
      if (code < 0x20 || end > MAX_CSI_LENGTH) return { token: key(text.slice(0, end)), length: end }; // malformed
      end++;
    }
    if (end >= text.length) return 'incomplete';
    const sequence = text.slice(0, end + 1);
    const final = text[end];
    const params = text.slice(2, end);
    if (params.startsWith('<') && (final === 'M' || final === 'm')) {
      const [b, x, y] = params.slice(1).split(';').map(Number);
      if ([b, x, y].every(Number.isFinite)) {
        return { token: { type: 'mouse', mouse: { code: b, x: x - 1, y: y - 1, release: final === 'm' } }, length: sequence.length };
      }
    }
    if (params === '' && (final === 'I' || final === 'O')) return { token: { type: 'focus', focused: final === 'I' }, length: 3 };
    return { token: key(sequence), length: sequence.length };
  }
}

/** How many characters at the end of `text` could be the start of a paste's end marker. */
function partialEndLength(text: string): number {
  for (let length = Math.min(text.length, PASTE_END.length - 1); length > 0; length--) {
    if (PASTE_END.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

function key(sequence: string): InputToken {
  return { type: 'key', sequence, name: keyName(sequence) };
}
