/**
 * TextEncoder/TextDecoder are ECMAScript-host standards present in every runtime
 * we target (Node, browsers, workers). Declared here because this folder compiles
 * with the bare ES lib, which keeps Node and DOM APIs out of shared code.
 */
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
