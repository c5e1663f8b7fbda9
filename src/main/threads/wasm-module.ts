/**
 * Compiles ghostty-web's libghostty-vt WASM once per process. The compiled
 * WebAssembly.Module is shared with every pane worker (structured-clone copies
 * only a handle), and each worker instantiates it for its own private memory.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let compiled: Promise<WebAssembly.Module> | null = null;

export function ghosttyWasmPath(): string {
  return createRequire(import.meta.url).resolve('ghostty-web/ghostty-vt.wasm');
}

export function loadGhosttyModule(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(readFileSync(ghosttyWasmPath()));
  return compiled;
}
