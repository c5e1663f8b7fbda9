/**
 * Boots patterm: coordinator, lifecycle, presets, MCP server and the TUI, and
 * makes sure the host terminal is given back however the process ends
 * (Quit, Ctrl-D on the empty canvas, SIGTERM/SIGHUP, or a crash).
 */
import { Coordinator } from './coordinator.js';
import { Lifecycle } from './lifecycle.js';
import { startMcpServer, type McpServerHandle } from './mcp/index.js';
import { createAgentLauncher } from './presets/agent-launcher.js';
import { PresetCatalog } from './presets/preset-catalog.js';
import { loadConfig } from './tui/config.js';
import { restoreHostTerminal } from './tui/terminal-restore.js';
import { TuiHost } from './tui/tui-host.js';

/**
 * Pane workers parse at nice +10: under a flood they take the CPU only when the
 * coordinator (PTY I/O, input) and the renderer have none to spare (weight ~10x
 * lower), so typing stays responsive; on an idle machine they run at full speed.
 */
const PANE_WORKER_NICE = 10;

export interface AppOptions {
  projectDir: string;
}

export async function runApp(options: AppOptions): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('patterm: needs a terminal (stdin and stdout must be a TTY)\n');
    process.exitCode = 2;
    return;
  }
  const coordinator = new Coordinator(options.projectDir);
  coordinator.workerNice = PANE_WORKER_NICE;
  let tui: TuiHost | null = null;
  let mcp: McpServerHandle | null = null;
  const lifecycle = new Lifecycle(coordinator, {
    // The terminal comes back first: the user sees their shell while panes wind down.
    beforeShutdown: () => tui?.stop(),
    afterShutdown: () => mcp?.dispose(),
  });
  lifecycle.install();
  installCrashHandlers(lifecycle);

  const catalog = PresetCatalog.load();
  mcp = await startMcpServer({
    coordinator,
    projectDir: options.projectDir,
    launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog }),
  });
  tui = new TuiHost({
    coordinator,
    launcher: mcp.launcher,
    presets: { listing: () => catalog.reload(), directories: [catalog.dirs.agents, catalog.dirs.processes] },
    scratchpads: mcp.scratchpads,
    config: loadConfig(),
    onQuit: () => void lifecycle.shutdown(0),
    onCrash: (error) => crash(lifecycle, error),
  });
  tui.start();
}

function installCrashHandlers(lifecycle: Lifecycle): void {
  process.on('uncaughtException', (error) => crash(lifecycle, error));
  process.on('unhandledRejection', (reason) => crash(lifecycle, reason instanceof Error ? reason : new Error(String(reason))));
  // Last resort for any exit path that skipped the lifecycle (process.exit from elsewhere).
  process.on('exit', () => restoreHostTerminal());
}

let crashed = false;

function crash(lifecycle: Lifecycle, error: Error): void {
  // The terminal first, synchronously: whatever happens next, the user gets a usable shell back.
  restoreHostTerminal();
  if (!crashed) process.stderr.write(`patterm: crashed: ${error.stack ?? error.message}\n`);
  crashed = true;
  void lifecycle.shutdown(1);
}
