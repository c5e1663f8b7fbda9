/**
 * Reads a PTY master into one buffer reused for every read. node-pty's stream
 * allocates a fresh buffer for every read, and V8 frees each only when a
 * collection finds it dead: between collections those dead reads were the
 * larger part of a flooding pane's memory in the PTY host.
 * net.Socket can read into a caller's buffer (its `onread` option), but
 * node-pty creates the socket and gives no way to pass that option, so this
 * sets the fields the option sets, found on the socket by name (Node 20's
 * net.js). Where they are missing the stream is left as it was.
 */
import type { Socket } from 'node:net';

/** Larger than any one read of a PTY master returns (the line discipline hands out a bounded block), so a read always fits. */
const READ_BUFFER_BYTES = 16 * 1024;

interface StreamHandle {
  useUserBuffer?: (buffer: Uint8Array) => void;
}

/**
 * From now on, each read of `socket` calls `onRead` with a view of the reused
 * buffer, valid only during the call, and no 'data' event is emitted. False
 * (nothing changed) when this Node's socket lacks the fields to do so.
 */
export function readIntoReusedBuffer(socket: Socket, onRead: (bytes: Buffer) => void): boolean {
  const symbols = Object.getOwnPropertySymbols(socket);
  const bufferField = symbols.find((symbol) => symbol.description === 'kBuffer');
  const callbackField = symbols.find((symbol) => symbol.description === 'kBufferCb');
  const handle = (socket as unknown as { _handle: StreamHandle | null })._handle;
  if (!bufferField || !callbackField || typeof handle?.useUserBuffer !== 'function') return false;
  const buffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
  handle.useUserBuffer(buffer);
  const fields = socket as unknown as Record<symbol, unknown>;
  fields[bufferField] = buffer;
  fields[callbackField] = (bytesRead: number) => {
    onRead(buffer.subarray(0, bytesRead));
  };
  return true;
}
