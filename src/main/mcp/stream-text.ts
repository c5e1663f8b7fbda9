/**
 * Where a read of a pane's raw output can stop: at a boundary that does not
 * split a UTF-8 character or an escape sequence (the rest comes with the next
 * read, from `new_offset`).
 */

/** How far back an unterminated escape sequence is looked for at the end of a read. */
const ESCAPE_LOOKBACK_BYTES = 256;
// eslint-disable-next-line no-control-regex
const UNFINISHED_ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*)?$/;

/** Bytes of `bytes` that can be decoded now without cutting a character or escape in half. */
export function completeLength(bytes: Uint8Array): number {
  let end = bytes.length;
  // UTF-8: step back over continuation bytes to the lead byte and check it is complete.
  for (let back = 1; back <= 4 && end - back >= 0; back++) {
    const byte = bytes[end - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  const from = Math.max(0, end - ESCAPE_LOOKBACK_BYTES);
  const lastEscape = bytes.lastIndexOf(0x1b, end - 1);
  if (lastEscape >= from) {
    const tail = new TextDecoder().decode(bytes.subarray(lastEscape, end));
    if (UNFINISHED_ESCAPE.test(tail)) end = lastEscape;
  }
  return end;
}
