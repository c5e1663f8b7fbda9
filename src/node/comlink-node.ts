/**
 * Comlink over Node's worker_threads ports. Comlink ships an ESM build and a
 * Node adapter but no `exports` map, so both paths are resolved here, once.
 */
import * as Comlink from 'comlink/dist/esm/comlink.mjs';
import nodeEndpointUntyped from 'comlink/dist/esm/node-adapter.mjs';
import type { MessagePort, Worker } from 'node:worker_threads';

type ComlinkModule = typeof import('comlink');
const comlink = Comlink as unknown as ComlinkModule;

export const { expose, wrap, transfer, proxy, releaseProxy } = comlink;
export type Remote<T> = import('comlink').Remote<T>;
export type Endpoint = import('comlink').Endpoint;

export function nodeEndpoint(port: MessagePort | Worker): Endpoint {
  return (nodeEndpointUntyped as unknown as (p: unknown) => Endpoint)(port);
}
