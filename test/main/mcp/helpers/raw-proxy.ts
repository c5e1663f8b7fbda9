/**
 * Runs `bin/patterm mcp-stdio` as a plain child process, for tests that look
 * at the proxy's own bytes and exit status rather than going through the SDK.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PATTERM_BIN } from './mcp-harness.js';

export interface RawProxy {
  child: ChildProcessWithoutNullStreams;
  stdoutText(): string;
  stderrText(): string;
  /** Resolves with the exit code once the proxy has exited. */
  exited: Promise<number | null>;
  /** Sends one line (a newline is added). */
  send(line: string): void;
  /** Resolves with the next complete stdout line that satisfies `accept`. */
  nextLine(accept?: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

export function runProxy(args: string[]): RawProxy {
  const child = spawn(process.execPath, [PATTERM_BIN, 'mcp-stdio', ...args], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  let consumed = 0;
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => {
    for (const wake of waiters.splice(0)) wake();
  });
  const proxy: RawProxy = {
    child,
    stdoutText: () => stdout,
    stderrText: () => stderr,
    exited,
    send: (line) => child.stdin.write(line + '\n'),
    async nextLine(accept = () => true, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let newline;
        while ((newline = stdout.indexOf('\n', consumed)) !== -1) {
          const line = stdout.slice(consumed, newline);
          consumed = newline + 1;
          if (accept(line)) return line;
        }
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no matching stdout line; stdout so far: ${stdout.slice(0, 500)}; stderr: ${stderr}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
  return proxy;
}

/** The MCP initialize exchange, by hand. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
export const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
