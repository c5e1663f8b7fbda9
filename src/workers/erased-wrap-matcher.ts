/**
 * Finds, in output on its way to the emulator, each erase that certainly
 * starts at the first column: EL 0 or 2 after a CR, with nothing between
 * them but cursor moves up or down and other erases (none moves the cursor
 * sideways). Shells erase their command line this way (zsh: CR EL at each
 * right edge; readline: CR EL, then CR CUU EL per row). Matches split across
 * writes are found too.
 */

const CR = 0x0d;
const ESC = 0x1b;
const LEFT_BRACKET = 0x5b;
const DIGIT_0 = 0x30;
const DIGIT_2 = 0x32;
const DIGIT_9 = 0x39;
const CURSOR_UP = 0x41;
const CURSOR_DOWN = 0x42;
const ERASE_LINE = 0x4b;
/** CR ESC [: where every chain starts; found with Buffer's indexOf, which is memchr-fast on output that has none. */
const CHAIN_START = Buffer.from([CR, ESC, LEFT_BRACKET]);
/** A chain still open at the end of a write is kept for the next one up to this long; longer ones are not a shell's. */
const MAX_CARRIED_BYTES = 64;
/** Parameters longer than this are not a row count a shell sends. */
const MAX_PARAMETER_DIGITS = 4;

/** What a chain from a CR came to: the ends of its erases, and where it stopped, or where the bytes ran out inside it. */
interface Chain {
  ends: number[];
  /** Just past the chain; -1 when the bytes ended inside it. */
  next: number;
  /** When they did: where the sequence they cut began. */
  cut: number;
}

export class ErasedWrapMatcher {
  /** An unfinished chain at the end of the last write. */
  private carried: Uint8Array = new Uint8Array(0);

  /** Offsets in `bytes` just past each erase that starts at the first column, in order; `bytes` follows the last write seen. */
  ends(bytes: Uint8Array): number[] {
    const carried = this.carried;
    const input = carried.length > 0 ? concat(carried, bytes) : bytes;
    this.carried = new Uint8Array(0);
    const ends: number[] = [];
    const view = Buffer.from(input.buffer, input.byteOffset, input.length);
    for (let at = view.indexOf(CHAIN_START); at !== -1; at = view.indexOf(CHAIN_START, at)) {
      const chain = walkChain(input, at);
      for (const end of chain.ends) ends.push(end - carried.length);
      if (chain.next === -1) {
        // The bytes ran out inside the chain: the cut sequence waits for the next write, behind a CR that stands for the chain so far (the cursor in the first column).
        if (input.length - chain.cut < MAX_CARRIED_BYTES) this.carried = concat(Uint8Array.of(CR), input.subarray(chain.cut));
        break;
      }
      at = chain.next;
    }
    // A write that ends in CR or CR ESC: the chain's start is cut.
    if (this.carried.length === 0) this.carried = cutStart(input);
    return ends;
  }
}

/** From the CR at `at`: its CSIs that keep the cursor in the first column, recording the ends of EL 0 and EL 2. */
function walkChain(bytes: Uint8Array, at: number): Chain {
  const ends: number[] = [];
  let i = at + 1;
  while (true) {
    while (i < bytes.length && bytes[i] === CR) i++;
    if (i >= bytes.length) return { ends, next: -1, cut: i };
    if (bytes[i] !== ESC) return { ends, next: i, cut: -1 };
    if (i + 1 >= bytes.length) return { ends, next: -1, cut: i };
    if (bytes[i + 1] !== LEFT_BRACKET) return { ends, next: i, cut: -1 };
    let j = i + 2;
    while (j < bytes.length && j - (i + 2) <= MAX_PARAMETER_DIGITS && bytes[j] >= DIGIT_0 && bytes[j] <= DIGIT_9) j++;
    if (j >= bytes.length) return { ends, next: -1, cut: i };
    const final = bytes[j];
    const digits = j - (i + 2);
    if (final === ERASE_LINE) {
      const parameter = digits === 0 ? DIGIT_0 : digits === 1 ? bytes[i + 2] : -1;
      if (parameter === DIGIT_0 || parameter === DIGIT_2) ends.push(j + 1);
    } else if (final !== CURSOR_UP && final !== CURSOR_DOWN) {
      return { ends, next: i, cut: -1 };
    }
    i = j + 1;
  }
}

/** The tail of `bytes` that is a chain's start cut by the write's end: a CR, or CR ESC. */
function cutStart(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  if (n >= 1 && bytes[n - 1] === CR) return bytes.slice(n - 1);
  if (n >= 2 && bytes[n - 2] === CR && bytes[n - 1] === ESC) return bytes.slice(n - 2);
  return new Uint8Array(0);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
