/**
 * PATTERM_PORT: a TCP port for each worktree's dev server, so agents in two
 * worktrees do not both start on 3000. The system picks a free one; ports that
 * other worktrees of the project hold are never given twice.
 */
import { createServer } from 'node:net';

/** Tries before giving up; each one asks the system for a port it is not using. */
const PORT_TRIES = 20;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('the system gave no port'))));
    });
  });
}

export async function choosePort(taken: ReadonlySet<number>): Promise<number> {
  for (let attempt = 0; attempt < PORT_TRIES; attempt++) {
    const port = await freePort();
    if (!taken.has(port)) return port;
  }
  throw new Error(`could not find a TCP port that no other worktree holds in ${PORT_TRIES} tries`);
}
