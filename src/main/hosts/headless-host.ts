/**
 * `patterm mcp`: patterm without its TUI, as the stdio MCP server of a host
 * (Claude Code, codex, opencode, an IDE agent, a script on an MCP SDK). The
 * same coordinator, workers, MCP server and tools as the TUI runs, and no
 * renderer thread. The host is the orchestrator of one session; the agents it
 * spawns reach patterm through `patterm mcp-stdio` and the socket, as they do
 * in the TUI. stdout carries the host's JSON-RPC only. When the host closes
 * stdin (or exits), the exit cascade of a Quit runs and no process is left;
 * a SIGKILL is covered by the orphan watchdog, as for the TUI.
 */
import { Duplex } from 'node:stream';
import { Coordinator, INTERACTIVE_WORKER_NICE } from '../coordinator.js';
import { Lifecycle } from '../process/lifecycle.js';
import { startMcpServer, type McpServerHandle } from '../mcp/index.js';
import { warmMcpSdk } from '../mcp/transport/mcp-sdk.js';
import { SocketTransport } from '../mcp/transport/socket-transport.js';
import { createAgentLauncher } from '../presets/agent-launcher.js';
import { PresetCatalog } from '../presets/preset-catalog.js';
import { loadConfig } from '../tui/config.js';
import { ignoreError, log } from '../../node/patterm-log.js';
import { HostSession, hostName } from './host-session.js';
import { PreAnsweredTransport } from './initialize-answer.js';
import type { StdioFront } from './stdio-front.js';
import { terminalAttention } from './terminal-attention.js';

export interface HeadlessOptions {
  projectDir: string;
  /** What has read stdin so far (and answered initialize). */
  front: StdioFront;
  /** Settles when the host closes stdin. */
  stdinClosed: Promise<void>;
}

/** The root's name when the host has not said its own by the time the session starts. */
const UNNAMED_HOST = 'mcp-host';

export async function runHeadless(options: HeadlessOptions): Promise<void> {
  const config = loadConfig();
  for (const problem of config.ui.errors) log.warn(`config: ${problem}`);
  const coordinator = new Coordinator(options.projectDir);
  coordinator.workerNice = INTERACTIVE_WORKER_NICE;
  coordinator.admission.limits = config.limits;
  let mcpStarting: Promise<McpServerHandle> | null = null;
  // Set by any shutdown, a signal's too: the root pane's exit is then expected, not a failure.
  let ending = false;
  const lifecycle = new Lifecycle(coordinator, {
    beforeShutdown: () => void (ending = true),
    afterShutdown: () => mcpStarting?.then((mcp) => mcp.dispose(), ignoreError('starting the MCP server (reported when it failed)')),
  });
  lifecycle.install();
  const shutdown = (exitCode: number) => void lifecycle.shutdown(exitCode);
  const fail = (heading: string, error: unknown) => {
    if (ending) return;
    process.stderr.write(`patterm mcp: ${heading}: ${(error as Error)?.stack ?? String(error)}\n`);
    shutdown(1);
  };
  process.on('uncaughtException', (error) => fail('crashed', error));
  process.on('unhandledRejection', (reason) => fail('crashed', reason));
  // The host went away: nothing can reach it any more, so everything ends as on Quit.
  void options.stdinClosed.then(() => shutdown(0));
  process.stdout.on('error', (error) => {
    log.warn(`stdout to the MCP host failed (${error.message}); shutting down`);
    shutdown(0);
  });

  coordinator.prewarm().catch(ignoreError('booting the PTY host and a spare pane worker ahead of the session'));
  warmMcpSdk();
  const catalog = PresetCatalog.load();
  mcpStarting = startMcpServer({
    coordinator,
    projectDir: options.projectDir,
    launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog }),
    permissionPolicy: config.permissions,
    attention: terminalAttention(),
  });
  let session: HostSession;
  let mcp: McpServerHandle;
  try {
    mcp = await mcpStarting;
    const name = options.front.clientName;
    session = await HostSession.open({ coordinator, mcp, name: name === null ? UNNAMED_HOST : hostName(name), owner: 'orchestrator', connected: true });
  } catch (error) {
    fail('could not start', error);
    return;
  }
  session.onEnded((root) => fail('the session ended', new Error(`its root pane ${root.id} exited (${root.process.status}); patterm mcp cannot go on without it`)));
  const buffered = options.front.handOver();
  const stdio = Duplex.from({ readable: process.stdin, writable: process.stdout });
  await mcp.serveTransport(new PreAnsweredTransport(new SocketTransport(stdio, buffered), options.front.answered), session.token);
}
