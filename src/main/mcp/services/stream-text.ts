/**
 * Where a read of a pane's raw output can stop: at a boundary that does not
 * split a UTF-8 character or an escape sequence (the rest comes with the next
 * read, from `new_offset`).
 */
import { completeUtf8Length } from '../../../shared/utf8-tail.js';

/** How far back an unterminated escape sequence is looked for at the end of a read. */
const ESCAPE_LOOKBACK_BYTES = 256;
// eslint-disable-next-line no-control-regex
const UNFINISHED_ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*)?$/;

/** Bytes of `bytes` that can be decoded now without cutting a character or escape in half. */
export function completeLength(bytes: Uint8Array): number {
  const end = completeUtf8Length(bytes);
  const from = Math.max(0, end - ESCAPE_LOOKBACK_BYTES);
  const lastEscape = bytes.lastIndexOf(0x1b, end - 1);
  if (lastEscape < from) return end;
  const tail = new TextDecoder().decode(bytes.subarray(lastEscape, end));
  return UNFINISHED_ESCAPE.test(tail) ? lastEscape : end;
}
