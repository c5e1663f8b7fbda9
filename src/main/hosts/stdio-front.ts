/**
 * The first reader of a headless patterm's stdin, while the rest of patterm
 * loads: it keeps every byte for the MCP transport that takes over, and
 * answers the host's `initialize` at once (initialize-answer.ts), so the host
 * sees a server that started as fast as Node does.
 */
import type { Readable, Writable } from 'node:stream';
import { LineSplitter } from '../mcp/transport/line-splitter.js';
import { answerInitialize, type RequestId } from './initialize-answer.js';

export class StdioFront {
  private readonly chunks: Buffer[] = [];
  private readonly lines = new LineSplitter((line) => this.onLine(line.whole()));
  private answeredId: RequestId | null = null;
  /** What the host called itself in initialize (clientInfo.name), once it has. */
  clientName: string | null = null;
  private lookingForInitialize = true;
  private readonly onData = (chunk: Buffer) => {
    this.chunks.push(chunk);
    if (this.lookingForInitialize) this.lines.push(chunk);
  };

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  start(): void {
    this.input.on('data', this.onData);
  }

  /** The id of the initialize request answered here, if one was. */
  get answered(): RequestId | null {
    return this.answeredId;
  }

  private onLine(whole: Buffer | null): void {
    if (!this.lookingForInitialize || whole === null) return;
    const answer = answerInitialize(whole.toString('utf8'));
    if (!answer) return;
    this.lookingForInitialize = false;
    this.answeredId = answer.id;
    this.clientName = answer.clientName;
    this.output.write(answer.reply);
  }

  /** Stops reading and returns every byte read so far, for the transport to read first. */
  handOver(): Buffer {
    this.input.pause();
    this.input.off('data', this.onData);
    this.lookingForInitialize = false;
    return Buffer.concat(this.chunks.splice(0));
  }
}
