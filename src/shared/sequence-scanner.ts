/**
 * A streaming scanner for the control sequences that the emulator (ghostty-web
 * 0.4.0) does not surface to us: OSC 0/2 titles, BEL, OSC 133 prompt marks,
 * OSC 52 clipboard writes, and the terminal queries it leaves unanswered.
 *
 * It keeps its state between chunks, so a sequence split anywhere (down to one
 * byte at a time) is found exactly once. Each event carries `end`, the index in
 * the current chunk just past the sequence, so the caller can feed the emulator
 * up to that point before answering a query that depends on terminal state.
 */

export type TerminalQuery =
  | { kind: 'da1' }
  | { kind: 'da2' }
  | { kind: 'da3' }
  | { kind: 'xtversion' }
  | { kind: 'decrqm'; mode: number; dec: boolean }
  | { kind: 'kitty-keyboard' }
  | { kind: 'cursor-position-dec' }
  | { kind: 'window-report'; op: number }
  | { kind: 'decrqss'; setting: string }
  | { kind: 'xtgettcap'; names: string }
  | { kind: 'color'; target: 'foreground' | 'background' | 'cursor' | 'palette'; index?: number; osc: number };

export type ScannedEvent =
  | { type: 'bell'; end: number }
  /** DECSCUSR (CSI Ps SP q): the cursor shape the program asked for; the emulator does not keep it. */
  | { type: 'cursor-shape'; shape: number; end: number }
  | { type: 'osc'; code: number; data: string; end: number }
  | { type: 'query'; query: TerminalQuery; end: number };

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;

/** Titles, marks and colour queries are short; OSC 52 carries base64 clipboard data. */
const MAX_OSC_BYTES = 1024 * 1024;
/** DECRQSS / XTGETTCAP payloads are a few bytes; anything longer is not a query we answer. */
const MAX_DCS_BYTES = 4096;
const MAX_CSI_BYTES = 64;

const enum State {
  Ground,
  Escape,
  EscapeIntermediate,
  Csi,
  Osc,
  OscEscape,
  Dcs,
  DcsEscape,
  /** SOS, PM or APC (ESC X / ^ / _): a string we ignore, but must not mistake for text. */
  IgnoredString,
  IgnoredStringEscape,
}

/** First OSC buffer size; it doubles up to MAX_OSC_BYTES for the rare long string (OSC 52). */
const INITIAL_OSC_BYTES = 256;

/**
 * CSI final bytes that can carry something we act on (queries, DECSCUSR); for any
 * other final (SGR 'm', cursor motion, erases: nearly every CSI in a flood) the
 * parameters are never turned into a string. A table indexed by the byte, not a
 * Set: it is looked up once per CSI, and on CSI-dense output a Set's lookup is a
 * visible share of the scan (figures: docs/perf-notes.md).
 */
const INTERESTING_CSI_FINALS = new Uint8Array(256);
for (const final of [0x63, 0x71, 0x70, 0x75, 0x6e, 0x74, 0x72, 0x68, 0x6c]) INTERESTING_CSI_FINALS[final] = 1; // c q p u n t, and margins: r h l
/** DECSTBM, SM and RM: read for margins only, from the parameter bytes (a scrolling program sends DECSTBM per scroll). */
const DECSTBM = 0x72;
/** Device status report (CSI Ps n). */
const DSR = 0x6e;
const SET_MODE = 0x68;
const RESET_MODE = 0x6c;
/** DECLRMM: while set, CSI s sets left and right margins. */
const LEFT_RIGHT_MARGIN_MODE = 69;
const SEMICOLON = 0x3b;
const QUESTION_MARK = 0x3f;
/** Text runs up to this long are stepped through byte by byte rather than with indexOf: below it, indexOf's call costs more than the loop. */
const LONG_TEXT_BYTES = 32;

export class SequenceScanner {
  private state = State.Ground;
  // Parameter bytes live in preallocated typed arrays: this runs on every byte a
  // pane prints, and array push/reset per sequence was most of its cost.
  private readonly csi = new Uint8Array(MAX_CSI_BYTES);
  private csiLength = 0;
  private osc = new Uint8Array(INITIAL_OSC_BYTES);
  private oscLength = 0;
  private oscOverflow = false;
  private readonly dcs = new Uint8Array(MAX_DCS_BYTES);
  private dcsLength = 0;
  private readonly decoder = new TextDecoder();
  /** In the chunk being scanned, the next BEL at or after the last search, or its length (nextControl); -1 before the first search. */
  private nextBel = -1;
  /** The last DECSTBM's top and bottom as sent (0: omitted), or null when none is in force. */
  private scrollRegion: [number, number] | null = null;
  private leftRightMarginMode = false;
  /**
   * Queries the emulator answers itself (DSR 5 and 6: status and cursor
   * position), counted, not reported as events: whoever forwards output
   * (pty-host-service.ts) must not hold back a batch the program waits to
   * hear about.
   */
  emulatorQueries = 0;

  /**
   * True between sequences: the stream can be cut here and a fresh emulator fed
   * what follows (emulator compaction relies on it; a cut inside a UTF-8
   * character is the caller's to check).
   */
  get atGround(): boolean {
    return this.state === State.Ground;
  }

  /**
   * No scroll margins can be in force on a screen of `rows` rows: what a skim
   * needs (skim-plan.ts). Conservative: a region the terminal would have
   * refused, or one a resize has since made full-screen, still counts as set.
   */
  marginsAreFullScreen(rows: number): boolean {
    if (this.leftRightMarginMode) return false;
    if (!this.scrollRegion) return true;
    const [top, bottom] = this.scrollRegion;
    return top <= 1 && (bottom === 0 || bottom >= rows);
  }

  /**
   * scan() for a chunk known to be plain output that starts and ends between
   * sequences: a skim's front (skim-plan.ts checked it). In plain output the
   * only thing found is BEL, so a native search for it is the whole scan, far
   * cheaper than stepping through SGR-dense text byte by byte.
   */
  scanPlain(chunk: Uint8Array): ScannedEvent[] {
    if (this.state !== State.Ground) return this.scan(chunk);
    const events: ScannedEvent[] = [];
    for (let at = chunk.indexOf(BEL); at !== -1; at = chunk.indexOf(BEL, at + 1)) events.push({ type: 'bell', end: at + 1 });
    return events;
  }

  scan(chunk: Uint8Array): ScannedEvent[] {
    const events: ScannedEvent[] = [];
    const length = chunk.length;
    this.nextBel = -1;
    for (let i = 0; i < length; i++) {
      if (this.state === State.Ground) {
        // Text, bells and whole CSIs are taken in one loop; it returns at the
        // first byte that needs the state machine, with the state set for it.
        i = this.ground(chunk, i, events);
        if (i >= length) break;
      }
      const byte = chunk[i];
      switch (this.state) {
        case State.Escape:
          this.onEscape(byte);
          break;
        case State.EscapeIntermediate:
          if (byte === ESC) this.state = State.Escape;
          else if (byte < 0x20 || byte > 0x2f) this.state = State.Ground;
          break;
        case State.Csi: {
          // Parameter bytes (digits, ';', '?', '>'...) in a tight loop: SGR-heavy output is mostly these.
          let at = i;
          let current = byte;
          while (current >= 0x20 && current <= 0x3f) {
            if (this.csiLength < MAX_CSI_BYTES) this.csi[this.csiLength++] = current;
            if (++at === length) break;
            current = chunk[at];
          }
          if (at === length) {
            i = length; // the sequence continues in the next chunk
            break;
          }
          i = at;
          this.onCsi(current, i, events);
          break;
        }
        case State.Osc:
          if (byte === BEL) this.finishOsc(i, events);
          else if (byte === ESC) this.state = State.OscEscape;
          else if (byte === CAN || byte === SUB) this.state = State.Ground;
          else this.pushOsc(byte);
          break;
        case State.OscEscape:
          if (byte === 0x5c) this.finishOsc(i, events);
          else {
            // ESC not followed by '\' aborts the string and starts a new sequence.
            this.state = State.Escape;
            this.onEscape(byte);
          }
          break;
        case State.Dcs:
          if (byte === ESC) this.state = State.DcsEscape;
          else if (byte === CAN || byte === SUB) this.state = State.Ground;
          else if (this.dcsLength < MAX_DCS_BYTES) this.dcs[this.dcsLength++] = byte;
          break;
        case State.DcsEscape:
          if (byte === 0x5c) this.finishDcs(i, events);
          else {
            this.state = State.Escape;
            this.onEscape(byte);
          }
          break;
        case State.IgnoredString:
          if (byte === ESC) this.state = State.IgnoredStringEscape;
          else if (byte === CAN || byte === SUB) this.state = State.Ground;
          break;
        case State.IgnoredStringEscape:
          if (byte === 0x5c) this.state = State.Ground;
          else {
            this.state = State.Escape;
            this.onEscape(byte);
          }
          break;
      }
    }
    return events;
  }

  /**
   * Scans from `start` in the ground state: text, bells and whole CSIs whose
   * final byte nothing acts on (cursor motion, SGR, erases: nearly every
   * sequence of a flood) without leaving this loop. Returns the index of the
   * next byte for the state machine, with `state` set for it, or the chunk's
   * length. Text is stepped over with one comparison a byte: ESC and BEL are
   * the only bytes at or below ESC that matter here.
   */
  private ground(chunk: Uint8Array, start: number, events: ScannedEvent[]): number {
    const length = chunk.length;
    let i = start;
    while (i < length) {
      const byte = chunk[i];
      if (byte > ESC) {
        // Text. Past a few dozen bytes the rest of a run is left to indexOf, faster than this loop there.
        const stop = Math.min(length, i + LONG_TEXT_BYTES);
        i++;
        while (i < stop && chunk[i] > ESC) i++;
        if (i === stop && i < length && chunk[i] > ESC) i = this.nextControl(chunk, i);
        continue;
      }
      if (byte === BEL) {
        events.push({ type: 'bell', end: i + 1 });
        i++;
        continue;
      }
      if (byte !== ESC) {
        i++;
        continue;
      }
      if (i + 1 >= length || chunk[i + 1] !== 0x5b) {
        this.state = State.Escape;
        return i + 1;
      }
      // ESC [ is by far the most common pair: a whole CSI within this chunk is handled right here.
      let at = i + 2;
      let final = 0;
      while (at < length) {
        final = chunk[at];
        if (final < 0x20 || final > 0x3f) break;
        at++;
      }
      if (at === length || final < 0x40 || final > 0x7e) {
        // A chunk edge, or something unusual inside: the state machine takes the parameters from the start.
        this.state = State.Csi;
        this.csiLength = 0;
        return i + 2;
      }
      if (INTERESTING_CSI_FINALS[final] === 1) {
        const params = chunk.subarray(i + 2, Math.min(at, i + 2 + MAX_CSI_BYTES));
        this.csi.set(params);
        this.csiLength = params.length;
        this.onCsi(final, at, events);
      }
      i = at + 1;
    }
    return i;
  }

  /**
   * The index of the next ESC or BEL in `chunk` from `from`, or its length,
   * with native searches (see LONG_TEXT_BYTES). Where the next BEL is is kept
   * for the rest of the chunk: most output has none, and searching again for
   * it at every long run would search the rest of the chunk each time.
   */
  private nextControl(chunk: Uint8Array, from: number): number {
    if (this.nextBel < from) this.nextBel = indexOrLength(chunk, BEL, from);
    return Math.min(indexOrLength(chunk, ESC, from), this.nextBel);
  }

  private onEscape(byte: number): void {
    if (byte === 0x5b) {
      this.state = State.Csi;
      this.csiLength = 0;
    } else if (byte === 0x5d) {
      this.state = State.Osc;
      this.oscLength = 0;
      this.oscOverflow = false;
    } else if (byte === 0x50) {
      this.state = State.Dcs;
      this.dcsLength = 0;
    } else if (byte === 0x58 || byte === 0x5e || byte === 0x5f) {
      this.state = State.IgnoredString;
    } else if (byte === ESC) {
      this.state = State.Escape;
    } else if (byte >= 0x20 && byte <= 0x2f) {
      this.state = State.EscapeIntermediate;
    } else {
      if (byte === 0x63) {
        // RIS: a full reset, margins included.
        this.scrollRegion = null;
        this.leftRightMarginMode = false;
      }
      this.state = State.Ground;
    }
  }

  private onCsi(byte: number, index: number, events: ScannedEvent[]): void {
    if (byte >= 0x40 && byte <= 0x7e) {
      this.state = State.Ground;
      if (INTERESTING_CSI_FINALS[byte] !== 1) return;
      if (byte === DECSTBM || byte === SET_MODE || byte === RESET_MODE) {
        this.trackMargins(this.csi.subarray(0, this.csiLength), byte);
        return;
      }
      const params = String.fromCharCode(...this.csi.subarray(0, this.csiLength));
      if (byte === 0x70 && params === '!') this.scrollRegion = null; // DECSTR
      const shape = byte === 0x71 ? /^(\d?) $/.exec(params) : null;
      if (shape) events.push({ type: 'cursor-shape', shape: Number(shape[1] || 0), end: index + 1 });
      const query = parseCsiQuery(params, String.fromCharCode(byte));
      if (query) events.push({ type: 'query', query, end: index + 1 });
      else if (byte === DSR && (params === '5' || params === '6')) this.emulatorQueries++;
    } else if (byte === ESC) {
      this.state = State.Escape;
    } else if (byte === CAN || byte === SUB) {
      this.state = State.Ground;
    } else if (byte >= 0x20 && byte <= 0x3f) {
      if (this.csiLength < MAX_CSI_BYTES) this.csi[this.csiLength++] = byte;
    }
    // Other C0 controls inside CSI execute without ending it; nothing to track.
  }

  private trackMargins(params: Uint8Array, final: number): void {
    if (final === DECSTBM) {
      const margins = scrollMargins(params);
      if (margins) this.scrollRegion = margins[0] <= 1 && margins[1] === 0 ? null : margins;
    } else if (params[0] === QUESTION_MARK && listsNumber(params, 1, LEFT_RIGHT_MARGIN_MODE)) {
      this.leftRightMarginMode = final === SET_MODE;
    }
  }

  private pushOsc(byte: number): void {
    if (this.oscLength >= MAX_OSC_BYTES) {
      this.oscOverflow = true;
      return;
    }
    if (this.oscLength === this.osc.length) {
      const grown = new Uint8Array(Math.min(MAX_OSC_BYTES, this.osc.length * 2));
      grown.set(this.osc);
      this.osc = grown;
    }
    this.osc[this.oscLength++] = byte;
  }

  private finishOsc(index: number, events: ScannedEvent[]): void {
    this.state = State.Ground;
    if (this.oscOverflow) return;
    const text = this.decoder.decode(this.osc.subarray(0, this.oscLength));
    const separator = text.indexOf(';');
    const codeText = separator === -1 ? text : text.slice(0, separator);
    if (!/^\d+$/.test(codeText)) return;
    const code = Number(codeText);
    const data = separator === -1 ? '' : text.slice(separator + 1);
    const query = parseOscQuery(code, data);
    if (query) events.push({ type: 'query', query, end: index + 1 });
    else events.push({ type: 'osc', code, data, end: index + 1 });
  }

  private finishDcs(index: number, events: ScannedEvent[]): void {
    this.state = State.Ground;
    const text = String.fromCharCode(...this.dcs.subarray(0, this.dcsLength));
    if (text.startsWith('$q')) events.push({ type: 'query', query: { kind: 'decrqss', setting: text.slice(2) }, end: index + 1 });
    else if (text.startsWith('+q')) events.push({ type: 'query', query: { kind: 'xtgettcap', names: text.slice(2) }, end: index + 1 });
  }
}

function indexOrLength(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}

function parseCsiQuery(params: string, final: string): TerminalQuery | null {
  switch (final) {
    case 'c':
      if (params === '' || params === '0') return { kind: 'da1' };
      if (params === '>' || params === '>0') return { kind: 'da2' };
      if (params === '=' || params === '=0') return { kind: 'da3' };
      return null;
    case 'q':
      return params === '>' || params === '>0' ? { kind: 'xtversion' } : null;
    case 'p': {
      const match = /^(\?)?(\d+)\$$/.exec(params);
      return match ? { kind: 'decrqm', mode: Number(match[2]), dec: match[1] === '?' } : null;
    }
    case 'u':
      return params === '?' ? { kind: 'kitty-keyboard' } : null;
    case 'n':
      return params === '?6' ? { kind: 'cursor-position-dec' } : null;
    case 't':
      return /^(14|16|18|19)$/.test(params) ? { kind: 'window-report', op: Number(params) } : null;
    default:
      return null;
  }
}

function parseOscQuery(code: number, data: string): TerminalQuery | null {
  if ((code === 10 || code === 11 || code === 12) && data === '?') {
    const target = code === 10 ? 'foreground' : code === 11 ? 'background' : 'cursor';
    return { kind: 'color', target, osc: code };
  }
  if (code === 4) {
    const match = /^(\d+);\?$/.exec(data);
    if (match) return { kind: 'color', target: 'palette', index: Number(match[1]), osc: 4 };
  }
  return null;
}

/**
 * DECSTBM's top and bottom (an omitted one is 0); null when the parameters
 * are not plain numbers (CSI ? r restores modes and sets no margins). Reads
 * the bytes without building strings: a scrolling program may send one per line.
 */
function scrollMargins(params: Uint8Array): [number, number] | null {
  const margins: [number, number] = [0, 0];
  let field = 0;
  for (const byte of params) {
    if (byte === SEMICOLON) field++;
    else if (byte >= 0x30 && byte <= 0x39) {
      if (field < 2) margins[field] = margins[field] * 10 + byte - 0x30;
    } else return null;
  }
  return margins;
}

/** Whether the semicolon-separated numbers in `params` from `start` include `wanted`. */
function listsNumber(params: Uint8Array, start: number, wanted: number): boolean {
  let value = 0;
  for (let i = start; i <= params.length; i++) {
    const byte = i < params.length ? params[i] : SEMICOLON;
    if (byte === SEMICOLON) {
      if (value === wanted) return true;
      value = 0;
    } else if (byte >= 0x30 && byte <= 0x39) {
      value = value * 10 + byte - 0x30;
    } else {
      return false;
    }
  }
  return false;
}
