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
}

export class SequenceScanner {
  private state = State.Ground;
  private csi: number[] = [];
  private osc: number[] = [];
  private oscOverflow = false;
  private dcs: number[] = [];
  private readonly decoder = new TextDecoder();

  scan(chunk: Uint8Array): ScannedEvent[] {
    const events: ScannedEvent[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      switch (this.state) {
        case State.Ground:
          if (byte === ESC) this.state = State.Escape;
          else if (byte === BEL) events.push({ type: 'bell', end: i + 1 });
          break;
        case State.Escape:
          this.onEscape(byte);
          break;
        case State.EscapeIntermediate:
          if (byte === ESC) this.state = State.Escape;
          else if (byte < 0x20 || byte > 0x2f) this.state = State.Ground;
          break;
        case State.Csi:
          this.onCsi(byte, i, events);
          break;
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
          else if (this.dcs.length < MAX_DCS_BYTES) this.dcs.push(byte);
          break;
        case State.DcsEscape:
          if (byte === 0x5c) this.finishDcs(i, events);
          else {
            this.state = State.Escape;
            this.onEscape(byte);
          }
          break;
      }
    }
    return events;
  }

  private onEscape(byte: number): void {
    if (byte === 0x5b) {
      this.state = State.Csi;
      this.csi.length = 0;
    } else if (byte === 0x5d) {
      this.state = State.Osc;
      this.osc.length = 0;
      this.oscOverflow = false;
    } else if (byte === 0x50) {
      this.state = State.Dcs;
      this.dcs.length = 0;
    } else if (byte === ESC) {
      this.state = State.Escape;
    } else if (byte >= 0x20 && byte <= 0x2f) {
      this.state = State.EscapeIntermediate;
    } else {
      this.state = State.Ground;
    }
  }

  private onCsi(byte: number, index: number, events: ScannedEvent[]): void {
    if (byte >= 0x40 && byte <= 0x7e) {
      this.state = State.Ground;
      const params = String.fromCharCode(...this.csi);
      const shape = byte === 0x71 ? /^(\d?) $/.exec(params) : null;
      if (shape) events.push({ type: 'cursor-shape', shape: Number(shape[1] || 0), end: index + 1 });
      const query = parseCsiQuery(params, String.fromCharCode(byte));
      if (query) events.push({ type: 'query', query, end: index + 1 });
    } else if (byte === ESC) {
      this.state = State.Escape;
    } else if (byte === CAN || byte === SUB) {
      this.state = State.Ground;
    } else if (byte >= 0x20 && byte <= 0x3f) {
      if (this.csi.length < MAX_CSI_BYTES) this.csi.push(byte);
    }
    // Other C0 controls inside CSI execute without ending it; nothing to track.
  }

  private pushOsc(byte: number): void {
    if (this.osc.length < MAX_OSC_BYTES) this.osc.push(byte);
    else this.oscOverflow = true;
  }

  private finishOsc(index: number, events: ScannedEvent[]): void {
    this.state = State.Ground;
    if (this.oscOverflow) return;
    const text = this.decoder.decode(Uint8Array.from(this.osc));
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
    const text = String.fromCharCode(...this.dcs);
    if (text.startsWith('$q')) events.push({ type: 'query', query: { kind: 'decrqss', setting: text.slice(2) }, end: index + 1 });
    else if (text.startsWith('+q')) events.push({ type: 'query', query: { kind: 'xtgettcap', names: text.slice(2) }, end: index + 1 });
  }
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
