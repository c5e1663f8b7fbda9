/**
 * Cuts a byte stream into newline-delimited lines (MCP's stdio framing) for
 * the socket transport, and for the stdio proxy, which forwards the bytes as
 * they come and reads request ids on the side. A line is handed
 * over whole up to a size limit; past it only its first and last bytes are
 * kept, so a huge message costs no memory beyond the limit.
 */
/**
 * Largest JSON-RPC message accepted. A full scratchpad (1 MiB) escaped as JSON
 * can grow a few times over; 16 MiB leaves room while bounding memory per
 * connection.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Enough to see which key a message starts with, or find its id there. */
const HEAD_BYTES = 512;
/** Enough for a trailing `,"id":…}` (the SDK puts `id` last) with any id patterm or an agent CLI uses. */
const TAIL_BYTES = 512;

export interface Line {
  /** The whole line without its newline, or null when it was longer than the limit; joined only when asked for. */
  whole(): Buffer | null;
  head: Buffer;
  tail: Buffer;
  /** The line's length in bytes, without its newline. */
  bytes: number;
}

export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onLine: (line: Line) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  /** Part of a line has been seen and its newline has not. */
  get midLine(): boolean {
    return this.size > 0;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.size < HEAD_BYTES) this.head = Buffer.concat([this.head, piece.subarray(0, HEAD_BYTES - this.size)]);
    this.tail = piece.length >= TAIL_BYTES ? piece.subarray(-TAIL_BYTES) : Buffer.concat([this.tail, piece]).subarray(-TAIL_BYTES);
    this.size += piece.length;
    if (this.size <= this.maxBytes) this.chunks.push(piece);
    else this.chunks = [];
  }

  private endLine(): void {
    if (this.size === 0) return;
    const chunks = this.size > this.maxBytes ? null : this.chunks;
    const line = { whole: () => (chunks ? Buffer.concat(chunks) : null), head: this.head, tail: this.tail, bytes: this.size };
    this.chunks = [];
    this.size = 0;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    this.onLine(line);
  }
}
