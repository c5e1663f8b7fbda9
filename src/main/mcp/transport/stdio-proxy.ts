/**
 * `patterm mcp-stdio --socket <path> --identity <token>`: the MCP server an
 * agent CLI launches. It introduces itself to the running patterm over the unix
 * socket, then copies bytes both ways: stdin to the socket, the socket to
 * stdout. stdout carries protocol messages only; every complaint goes to
 * stderr. It exits when either side closes: with 0 when the agent closed its
 * stdin first; with 1 when patterm went away first (it exited or crashed), after
 * answering each request patterm left unanswered with an error, so the agent
 * CLI sees the call fail instead of waiting for ever.
 */
import { connect, type Socket } from 'node:net';
import { decodeLine, encodeLine, HANDSHAKE_VERSION, ReplySchema, readFirstLine, type Hello } from './handshake.js';
import { LineSplitter } from './line-splitter.js';
import { UnansweredRequests } from './unanswered-requests.js';

export interface StdioProxyOptions {
  socketPath: string;
  identity: string;
}

/** patterm answers the hello at once unless the token is still being bound (see BIND_WAIT_MS); allow for that. */
const WELCOME_TIMEOUT_MS = 20_000;

export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const complain = (message: string) => process.stderr.write(`patterm mcp-stdio: ${message}\n`);
  let socket: Socket;
  try {
    socket = await open(options.socketPath);
  } catch (error) {
    complain(describeConnectError(error as NodeJS.ErrnoException, options.socketPath));
    return 1;
  }
  socket.write(encodeLine({ patterm: 'hello', version: HANDSHAKE_VERSION, identity: options.identity } satisfies Hello));
  let rest: Buffer;
  try {
    const first = await readFirstLine(socket, WELCOME_TIMEOUT_MS);
    rest = first.rest;
    const reply = decodeLine(ReplySchema, first.line);
    if (!reply.ok) {
      complain(`unexpected reply from ${options.socketPath}: ${reply.error}`);
      socket.destroy();
      return 1;
    }
    if (reply.value.patterm === 'refused') {
      complain(`patterm refused this connection: ${reply.value.error}`);
      socket.destroy();
      return 1;
    }
  } catch (error) {
    complain(`no answer from patterm at ${options.socketPath}: ${(error as Error).message}`);
    socket.destroy();
    return 1;
  }
  return pipe(socket, rest, complain);
}

function open(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function describeConnectError(error: NodeJS.ErrnoException, path: string): string {
  switch (error.code) {
    case 'ENOENT':
      return `no patterm socket at ${path}; patterm may have exited (it removes its socket on exit)`;
    case 'ECONNREFUSED':
      return `nothing is listening at ${path}; it is a stale socket from a patterm that is no longer running`;
    case 'EACCES':
      return `permission denied opening ${path}; the socket belongs to another user`;
    default:
      return `cannot connect to ${path}: ${error.message}`;
  }
}

/** Copies bytes both ways until one side closes; resolves with the exit code. */
function pipe(socket: Socket, rest: Buffer, complain: (message: string) => void): Promise<number> {
  return new Promise((resolve) => {
    let finished = false;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      process.stdin.unpipe(socket);
      process.stdin.destroy();
      socket.destroy();
      // Let stdout drain before the caller sets the exit code and the loop ends.
      process.stdout.write('', () => resolve(code));
    };
    // Both directions are watched line by line, on the side of the byte copy, to know which requests await an answer.
    const unanswered = new UnansweredRequests();
    const fromAgent = new LineSplitter((line) => unanswered.sent(line));
    const fromPatterm = new LineSplitter((line) => unanswered.received(line));
    const pattermGone = (what: string) => {
      if (finished) return;
      const count = unanswered.size;
      const answers = unanswered.answerAll(`${what} before answering this request (did patterm exit or crash?); whether the call took effect is unknown`);
      // A reply cut off mid-line would swallow the first error line: end it first.
      if (answers) process.stdout.write((fromPatterm.midLine ? '\n' : '') + answers);
      complain(`${what}${count > 0 ? `; answered ${count} unanswered request${count === 1 ? '' : 's'} with an error` : ''}`);
      finish(1);
    };
    if (rest.length > 0) {
      fromPatterm.push(rest);
      process.stdout.write(rest);
    }
    socket.on('data', (chunk: Buffer) => fromPatterm.push(chunk));
    process.stdin.on('data', (chunk: Buffer) => fromAgent.push(chunk));
    socket.pipe(process.stdout, { end: false });
    process.stdin.pipe(socket);
    // The client closed stdin: tell patterm we are done, then wait for it to close its side.
    process.stdin.once('end', () => socket.end());
    socket.once('close', () => {
      if (process.stdin.readableEnded) finish(0);
      else pattermGone('patterm closed the connection');
    });
    socket.on('error', (error) => pattermGone(`the connection to patterm failed (${error.message})`));
    process.stdout.on('error', () => finish(0)); // The client went away (EPIPE): nothing left to do.
    socket.resume();
  });
}
