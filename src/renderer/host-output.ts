/**
 * Writes frames straight to the host terminal's file descriptor. In a worker,
 * process.stdout is proxied through the main thread; writing the fd directly
 * keeps a busy main thread (PTY floods) out of the drawing path.
 */
import { writeSync } from 'node:fs';

/** How long to back off when the terminal is not ready for more output (non-blocking fd). */
const EAGAIN_BACKOFF_MS = 1;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

export type HostWriter = (text: string) => void;

export function fdWriter(fd: number): HostWriter {
  return (text) => {
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        Atomics.wait(sleepCell, 0, 0, EAGAIN_BACKOFF_MS);
      }
    }
  };
}
