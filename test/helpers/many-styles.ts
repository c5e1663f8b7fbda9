import { GhosttyEmulator, type EmulatorOptions } from '../../src/workers/ghostty-emulator.js';
import type { ScrollbackStyle } from '../../src/shared/screen-serializer.js';

/** Output that bloats ghostty-web 0.4.0: a fresh truecolour style every few words, from a fixed seed. */
export function manyStyles(lines: number, seed: number): string {
  let state = seed;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  let out = '';
  for (let i = 0; i < lines; i++) {
    for (let segment = 0; segment < 8; segment++) out += `\x1b[38;2;${next(256)};${next(256)};${next(256)};48;5;${next(256)}mword${next(1000)} `;
    out += '\x1b[0m\r\n';
  }
  return out;
}

/** WASM memory of a fresh emulator of `size` once painted from `emulator` with its scrollback in `style`: what a compaction would leave. */
export function paintedBytes(module: WebAssembly.Module, size: EmulatorOptions, emulator: GhosttyEmulator, style: ScrollbackStyle): number {
  const fresh = new GhosttyEmulator(module, size);
  fresh.write(new TextEncoder().encode(emulator.serialize(style)));
  const bytes = fresh.wasmMemoryBytes();
  fresh.dispose();
  return bytes;
}
