/**
 * A command's output as a record shows it: the rendered text (as a terminal
 * would show it, without styles: ansi-strip.ts renderText) of the file the
 * PTY host wrote, capped with its head and its tail kept. The cut falls on
 * line boundaries where it can, and `truncatedBytes` says how many bytes of
 * the output are not shown; the file keeps all of them.
 */
import { open } from 'node:fs/promises';
import { renderText } from '../../shared/ansi-strip.js';
import { completeUtf8Length } from '../../shared/utf8-tail.js';
import { logIgnored } from '../../node/patterm-log.js';

export interface OutputCap {
  headBytes: number;
  tailBytes: number;
}

/** What run_command and wait_for_command return of one command's output. */
export const RECORD_OUTPUT_CAP: OutputCap = { headBytes: 4 * 1024, tailBytes: 12 * 1024 };
/** Per record of command_history, which returns many. */
export const HISTORY_OUTPUT_CAP: OutputCap = { headBytes: 512, tailBytes: 1536 };
/** A notice is typed into an agent's input: its last lines only. */
export const NOTICE_OUTPUT_LINES = 8;

export interface CappedOutput {
  text: string;
  /** Bytes of output the text leaves out (0: it is all there). */
  truncatedBytes: number;
  /** Bytes of output in all. */
  bytes: number;
}

/** A cut this far past the cap still lands on a line boundary rather than mid-line. */
const LINE_SLACK_BYTES = 256;

export async function readCappedOutput(path: string | null, cap: OutputCap): Promise<CappedOutput> {
  if (path === null) return { text: '', truncatedBytes: 0, bytes: 0 };
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logIgnored(`reading command output ${path}`, error);
    return { text: '', truncatedBytes: 0, bytes: 0 };
  }
  try {
    const { size } = await handle.stat();
    if (size <= cap.headBytes + cap.tailBytes) {
      const all = Buffer.alloc(size);
      await handle.read(all, 0, size, 0);
      return { text: renderOutput(all), truncatedBytes: 0, bytes: size };
    }
    const head = Buffer.alloc(cap.headBytes);
    await handle.read(head, 0, cap.headBytes, 0);
    const tailStart = size - cap.tailBytes;
    const tail = Buffer.alloc(cap.tailBytes);
    await handle.read(tail, 0, cap.tailBytes, tailStart);
    const headKept = head.subarray(0, completeUtf8Length(head.subarray(0, lineEnd(head))));
    const tailKept = tail.subarray(utf8Start(tail, lineStart(tail)));
    const headText = renderOutput(headKept);
    const tailText = renderOutput(tailKept);
    const truncatedBytes = size - headKept.length - tailKept.length;
    return { text: `${headText}\n[… ${truncatedBytes} bytes not shown …]\n${tailText}`, truncatedBytes, bytes: size };
  } finally {
    await handle.close();
  }
}

export function renderOutput(bytes: Uint8Array): string {
  return renderText(new TextDecoder().decode(bytes)).replace(/^\n+|\n+$/g, '');
}

/** The last `n` lines of rendered output. */
export function lastLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.slice(Math.max(0, lines.length - n)).join('\n');
}

/** Just past the head's last newline, if one is near its end. */
function lineEnd(head: Uint8Array): number {
  const newline = head.lastIndexOf(0x0a);
  return newline !== -1 && head.length - newline <= LINE_SLACK_BYTES ? newline + 1 : head.length;
}

/** Just past the tail's first newline, if one is near its start. */
function lineStart(tail: Uint8Array): number {
  const newline = tail.indexOf(0x0a);
  return newline !== -1 && newline < LINE_SLACK_BYTES ? newline + 1 : 0;
}

/** Skips UTF-8 continuation bytes, so the tail does not start inside a character. */
function utf8Start(bytes: Uint8Array, from: number): number {
  let at = from;
  while (at < bytes.length && at - from < 4 && (bytes[at] & 0xc0) === 0x80) at++;
  return at;
}
