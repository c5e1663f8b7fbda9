/** The slice of the WebAssembly JS API we use; Node provides it, but its types live in lib.dom. */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  class RuntimeError extends Error {}
  function compile(bytes: Uint8Array): Promise<Module>;
}
