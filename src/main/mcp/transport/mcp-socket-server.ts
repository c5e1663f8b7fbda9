/**
 * The unix-socket listener. Each connection first completes the patterm
 * handshake (its identity token), then gets its own MCP Server instance over a
 * SocketTransport. One misbehaving connection can only ever close itself.
 * If the socket file is deleted while patterm runs, it listens at the path again.
 */
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { chmod, unlink } from 'node:fs/promises';
import { loadMcpSdk } from './mcp-sdk.js';
import type { Disposable } from '../../../shared/events.js';
import { decodeLine, encodeLine, HelloSchema, readFirstLine, type HandshakeReply } from './handshake.js';
import type { IdentityRegistry } from '../services/identity-registry.js';
import { SOCKET_MODE, prepareSocketDir, prepareSocketPath } from './socket-path.js';
import { removeAtExit } from '../../process/exit-cleanups.js';
import { ignoreError, log, pattermLog, warnError } from '../../../node/patterm-log.js';
import { fileIdentity, SocketFileWatch, type FileIdentity, type SocketFileLoss } from './socket-file-watch.js';
import { SocketTransport } from './socket-transport.js';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';
import { McpClientEvents, serveMcpConnection } from './mcp-connection.js';

/** A connection that has not said hello by then is not a patterm proxy. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/**
 * A refused peer gets this long to read the one-line reason and close its end; one
 * that never reads or closes would otherwise hold its file descriptor for good.
 */
const REFUSAL_LINGER_MS = 2000;

/** How long an unauthenticated connection may last (tests shorten them). */
export interface ConnectionDeadlines {
  handshakeMs: number;
  refusalLingerMs: number;
}

const DEFAULT_DEADLINES: ConnectionDeadlines = { handshakeMs: HANDSHAKE_TIMEOUT_MS, refusalLingerMs: REFUSAL_LINGER_MS };
/**
 * An agent may connect before the spawn that issued its token has bound it to
 * the new pane (they race by a few event-loop turns); wait this long for it.
 */
const BIND_WAIT_MS = 10_000;

export class McpSocketServer implements Disposable {
  private readonly sockets = new Map<Socket, string | null>();
  /** Each connection's host as it introduces itself, and its end. */
  readonly clients = new McpClientEvents();
  private readonly revokedSubscription: Disposable;
  private closed = false;
  /** Cancels the removal of the socket at process exit (dispose removes it itself). */
  private readonly forgetRemovalAtExit: () => void;
  private readonly watch: SocketFileWatch;
  /** The last trouble logged about the socket file, so a lasting one is logged once, not every check. */
  private lastTrouble = '';

  private constructor(
    readonly path: string,
    private net: NetServer,
    listening: FileIdentity,
    private readonly identities: IdentityRegistry,
    private readonly dispatcher: ToolDispatcher,
    private readonly deadlines: ConnectionDeadlines,
  ) {
    this.revokedSubscription = identities.onRevoked((token) => {
      for (const [socket, owner] of this.sockets) if (owner === token) socket.end();
    });
    // patterm leaves nothing behind: the socket is removed on exit, even one that skips dispose() or a SIGKILL.
    this.forgetRemovalAtExit = removeAtExit(path, 'file');
    this.adopt(net);
    this.watch = new SocketFileWatch(path, listening, (loss) => this.recover(loss));
  }

  static async listen(path: string, identities: IdentityRegistry, dispatcher: ToolDispatcher, deadlines: ConnectionDeadlines = DEFAULT_DEADLINES): Promise<McpSocketServer> {
    await prepareSocketPath(path);
    const { net, identity } = await bindSocket(path);
    return new McpSocketServer(path, net, identity, identities, dispatcher, deadlines);
  }

  private adopt(net: NetServer): void {
    this.net = net;
    net.on('connection', (socket) => void this.accept(socket));
    // A failed accept (e.g. EMFILE) must not take the server down.
    net.on('error', warnError(`the MCP socket server at ${this.path}; an agent could not connect`));
  }

  /** The socket file is gone or replaced: listen at the path again if it is free. */
  private async recover(loss: SocketFileLoss): Promise<FileIdentity | null> {
    if (this.closed) return null;
    if (loss === 'replaced') {
      this.logTrouble(`MCP socket ${this.path} was replaced by a file patterm did not make; leaving it alone, so agents cannot connect until it is gone`);
      return null;
    }
    try {
      // libuv unlinks a unix socket's path when its listener's handle closes (at once, inside
      // close()), so the old listener must close before the new one binds. Its close callback
      // waits for every open connection to end: not awaited, those connections carry on.
      if (this.net.listening) this.net.close();
      // Only the directory: a file that appeared since the check is someone else's, and
      // binding over it fails (EADDRINUSE) instead of removing it; the next check sees it.
      await prepareSocketDir(this.path);
      const { net, identity } = await bindSocket(this.path);
      if (this.closed) {
        await new Promise<void>((resolve) => net.close(() => resolve()));
        return null;
      }
      this.adopt(net);
      this.lastTrouble = '';
      pattermLog(`MCP socket ${this.path} was deleted while patterm ran; listening there again`);
      return identity;
    } catch (error) {
      this.logTrouble(`MCP socket ${this.path} was deleted while patterm ran, and listening there again failed: ${(error as Error).message}; retrying`);
      return null;
    }
  }

  private logTrouble(message: string): void {
    if (message === this.lastTrouble) return;
    this.lastTrouble = message;
    log.warn(message);
  }

  get connectionCount(): number {
    return this.sockets.size;
  }

  private async accept(socket: Socket): Promise<void> {
    this.sockets.set(socket, null);
    socket.on('error', ignoreError('an MCP client connection'));
    socket.on('close', () => this.sockets.delete(socket));
    try {
      const { line, rest } = await readFirstLine(socket, this.deadlines.handshakeMs);
      const hello = decodeLine(HelloSchema, line);
      if (!hello.ok) return this.refuse(socket, `bad handshake: ${hello.error}`);
      const token = hello.value.identity;
      const state = await this.identities.settle(token, BIND_WAIT_MS);
      if (state.kind !== 'live') return this.refuse(socket, refusal(state.kind, state.kind === 'revoked' ? state.paneName : ''));
      if (this.closed || socket.destroyed) return;
      this.sockets.set(socket, token);
      const pane = state.identity;
      socket.write(encodeLine({ patterm: 'welcome', pane: pane.paneId, role: pane.role } satisfies HandshakeReply));
      await this.serve(socket, token, rest);
    } catch (error) {
      this.refuse(socket, `handshake failed: ${(error as Error).message}`);
    }
  }

  private async serve(socket: Socket, token: string, rest: Buffer): Promise<void> {
    // The socket stays paused (readFirstLine) until the transport starts: nothing sent meanwhile is lost.
    await loadMcpSdk();
    if (this.closed || socket.destroyed) return;
    await serveMcpConnection(new SocketTransport(socket, rest), token, this.identities, this.dispatcher, this.clients);
  }

  /** Says why, then closes; a peer that neither reads nor closes is cut off after the linger. */
  private refuse(socket: Socket, error: string): void {
    if (socket.destroyed) return;
    socket.end(encodeLine({ patterm: 'refused', error } satisfies HandshakeReply));
    const linger = setTimeout(() => {
      if (socket.destroyed) return;
      pattermLog(`MCP connection refused (${error}) did not close within ${this.deadlines.refusalLingerMs} ms; destroyed`);
      socket.destroy();
    }, this.deadlines.refusalLingerMs);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  }

  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watch.dispose();
    this.revokedSubscription.dispose();
    for (const socket of this.sockets.keys()) socket.destroy();
    this.clients.dispose();
    await new Promise<void>((resolve) => this.net.close(() => resolve()));
    await unlink(this.path).catch(ignoreError(`removing the MCP socket ${this.path}`));
    this.forgetRemovalAtExit();
  }
}

function refusal(kind: 'unknown' | 'unbound' | 'revoked', paneName: string): string {
  switch (kind) {
    case 'revoked':
      return `identity token revoked: its pane ${JSON.stringify(paneName)} has exited`;
    case 'unbound':
      return 'identity token was issued but never bound to a pane (did the spawn fail?)';
    default:
      return `unknown identity token: it was not issued by the patterm process (pid ${process.pid}) serving this socket`;
  }
}

/** Listens at the free `path` with the socket's private mode; returns the listener and the socket file's identity. */
async function bindSocket(path: string): Promise<{ net: NetServer; identity: FileIdentity }> {
  const net = createServer({ pauseOnConnect: true });
  await new Promise<void>((resolve, reject) => {
    net.once('error', reject);
    net.listen(path, () => {
      net.off('error', reject);
      resolve();
    });
  });
  try {
    await chmod(path, SOCKET_MODE);
    return { net, identity: await fileIdentity(path) };
  } catch (error) {
    net.close();
    throw error;
  }
}
