/**
 * Where a run of UTF-8 can be cut without splitting a character: output
 * arrives in reads that end anywhere, and both the emulator (which must not
 * be swapped mid-character) and stream readers (which decode what they have)
 * need the last whole character's end.
 */

/** Bytes of `bytes` up to the end of its last complete UTF-8 character (all of them when none is cut off). */
export function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= 4 && back <= end; back++) {
    const byte = bytes[end - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}
