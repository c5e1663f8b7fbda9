/**
 * `bin/patterm mcp` started the way an MCP host starts it: by the SDK's real
 * stdio client, in a scratch project with its own XDG directories, and with a
 * marker in its environment that every process it starts inherits, so a test
 * can find what is left of it in /proc.
 */
import { after } from 'node:test';
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PATTERM_BIN } from '../../mcp/helpers/mcp-harness.js';
import { scratchDir } from '../../../helpers/scratch-dir.js';
import { UTF8_LOCALE } from '../../../helpers/locale.js';
import { writeFixturePresets } from '../../../fixtures/fake-agent-presets.js';

export interface HeadlessHost {
  client: Client;
  transport: StdioClientTransport;
  /** The `patterm mcp` process. */
  pid: number;
  /** Resolves with its exit code. */
  exited: Promise<number | null>;
  project: string;
  /** The root of its XDG directories. */
  root: string;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Live processes that carry this server's marker: patterm mcp and everything it started. */
  markedProcesses(): number[];
  /** Ends its stdin, as a host that exits or lets go does; resolves with its exit code. */
  closeStdin(): Promise<number | null>;
}

/** Tool calls wait on real processes on a loaded machine. */
const CALL_TIMEOUT_MS = 120_000;
const MARKER_VAR = 'PATTERM_TEST_MARK';

export async function startHeadlessHost(options: { clientName?: string; env?: Record<string, string>; fixturePresets?: boolean } = {}): Promise<HeadlessHost> {
  const root = scratchDir('patterm-headless-');
  const project = join(root, 'project');
  const runtime = join(root, 'runtime');
  mkdirSync(project);
  mkdirSync(runtime, { mode: 0o700 });
  // The fake agent and friends, where patterm looks for the user's presets.
  if (options.fixturePresets) writeFixturePresets(join(root, 'config', 'patterm', 'presets'));
  const marker = randomBytes(8).toString('hex');
  const transport = new StdioClientTransport({
    // A session of its own, without a controlling terminal, as a host started from a desktop
    // starts it: with none, request_human_attention has no human to reach. setsid(1) execs in place.
    command: 'setsid',
    args: [process.execPath, PATTERM_BIN, 'mcp', '--project', project],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: root,
      ...UTF8_LOCALE,
      XDG_CONFIG_HOME: join(root, 'config'),
      XDG_DATA_HOME: join(root, 'data'),
      XDG_STATE_HOME: join(root, 'state'),
      XDG_CACHE_HOME: join(root, 'cache'),
      XDG_RUNTIME_DIR: runtime,
      PATTERM_LOG: join(root, 'patterm.log'),
      [MARKER_VAR]: marker,
      ...options.env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: options.clientName ?? 'headless-test', version: '1.2.3' });
  await client.connect(transport);
  const pid = transport.pid!;
  // The SDK's close() ends stdin too, but SIGTERMs a server still busy 2 s later; these tests want stdin alone.
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const markedProcesses = () => processesWith(`${MARKER_VAR}=${marker}`);
  after(async () => {
    await client.close().catch(() => undefined);
    for (const left of markedProcesses()) process.kill(left, 'SIGKILL');
  });
  return {
    client,
    transport,
    pid,
    exited,
    project,
    root,
    stderr: () => stderr,
    call: (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS }) as Promise<CallToolResult>,
    markedProcesses,
    closeStdin() {
      child.stdin!.end();
      return exited;
    },
  };
}

/** PIDs of live (not zombie) processes whose environment holds `entry`. */
export function processesWith(entry: string): number[] {
  const needle = Buffer.from(`${entry}\0`);
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = Buffer.concat([readFileSync(`/proc/${name}/environ`), Buffer.from([0])]);
      if (environ.includes(needle) && !/\) Z /.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

export function structuredOf<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}
