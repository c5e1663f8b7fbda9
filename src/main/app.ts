/**
 * Boots patterm: coordinator, lifecycle, presets, MCP server and the TUI, and
 * makes sure the host terminal is given back however the process ends
 * (Quit, Ctrl-D on the empty canvas, SIGTERM/SIGHUP, or a crash).
 */
import type { Worker } from 'node:worker_threads';
import { Coordinator, INTERACTIVE_WORKER_NICE } from './coordinator.js';
import { Lifecycle } from './process/lifecycle.js';
import { startMcpServer, type McpServerHandle } from './mcp/index.js';
import { warmMcpSdk } from './mcp/transport/mcp-sdk.js';
import { createAgentLauncher } from './presets/agent-launcher.js';
import { LateLauncher } from './presets/late-launcher.js';
import { PresetCatalog } from './presets/preset-catalog.js';
import { configPath, loadConfig } from './tui/config.js';
import { restoreHostTerminal } from './tui/terminal-restore.js';
import { TuiHost } from './tui/tui-host.js';
import { AttachedHosts } from './hosts/attached-hosts.js';
import { ignoreError, pattermLog } from '../node/patterm-log.js';
import { startRunLog } from '../node/run-log.js';
import { VERSION } from './version.js';
import { Worktrees } from './worktrees/worktrees.js';
import { ShellPanes } from './shells/index.js';
import { describeResumable, resumeLastRun, startRecording, type ResumeChoice } from './resume/index.js';

export interface AppOptions {
  projectDir: string;
  /** The renderer thread, booted before this module was loaded (see bootRendererThread). */
  rendererThread?: Worker;
  /** `patterm --resume`: the layout record to bring back (chosen before the terminal was taken). */
  resume?: Extract<ResumeChoice, { ok: true }>;
}

export async function runApp(options: AppOptions): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('patterm: needs a terminal (stdin and stdout must be a TTY)\n');
    process.exitCode = 2;
    return;
  }
  startLogging(options.projectDir);
  const config = loadConfig();
  const coordinator = new Coordinator(options.projectDir);
  coordinator.workerNice = INTERACTIVE_WORKER_NICE;
  coordinator.admission.limits = config.limits;
  // Shared by the MCP tools and the TUI, so both see one set of records and locks.
  const worktrees = new Worktrees({ projectDir: options.projectDir, instanceId: coordinator.instanceId, settings: config.worktrees, panes: () => coordinator.allPanes() });
  // Recorded from the first pane on, so a SIGKILL at any moment leaves the layout as it was.
  const recording = startRecording(coordinator);
  let tui: TuiHost | null = null;
  let mcpStarting: Promise<McpServerHandle> | null = null;
  let hosts: AttachedHosts | null = null;
  // A failed start is reported below, once the terminal is back; those waiting on it only go without.
  const startFailed = ignoreError('starting the MCP server (reported when it failed)');
  const lifecycle = new Lifecycle(coordinator, {
    // The terminal comes back first: the user sees their shell while panes wind down. The record
    // stops following the tree before the panes are killed, so it keeps the layout the user left.
    beforeShutdown: async () => {
      await Promise.all([recording.recorder.freeze(), tui?.stop()]);
    },
    // A quit while the server is still starting waits for it, so its socket is removed too.
    afterShutdown: async () => {
      await mcpStarting?.then((mcp) => mcp.dispose(), startFailed);
      shells.dispose();
    },
  });
  // The orphan guards follow the first frame, below.
  lifecycle.installSignals();
  installCrashHandlers(lifecycle);

  // Read by the TUI's first preset listing, right after it has posted the renderer's init.
  const catalog = new PresetCatalog();
  const shells = new ShellPanes({ coordinator, catalog });
  // The MCP server makes the real launcher after the first frame; a spawn issued before it listens waits for it.
  const launcher = new LateLauncher('the MCP server');
  let firstFrameDrawn = () => {};
  const firstFrame = new Promise<void>((resolve) => (firstFrameDrawn = resolve));
  tui = new TuiHost({
    coordinator,
    launcher,
    shells,
    presets: { listing: () => catalog.reload(), directories: [catalog.dirs.agents, catalog.dirs.processes, catalog.dirs.shells] },
    config: config.ui,
    clipboard: config.clipboard,
    onQuit: () => void lifecycle.shutdown(0),
    onCrash: (error) => crash(lifecycle, tui, error),
    onRendererReady: () => firstFrameDrawn(),
    rendererThread: options.rendererThread,
    connectHost: () => (hosts ? hosts.connectAndDescribe() : Promise.reject(new Error('the MCP server has not started yet; try again in a moment'))),
    worktrees,
  });
  tui.start();
  crashTui = tui;

  // After the first frame, so that none of it competes with the renderer drawing it. A command the
  // renderer sends comes after its 'ready', so the orphan guards are up before any pane can start.
  await firstFrame;
  lifecycle.guardOrphans();
  mcpStarting = startMcpServer({
    coordinator,
    projectDir: options.projectDir,
    launcher: (endpoint) => createAgentLauncher({ coordinator, endpoint, catalog, conversations: recording.tracker }),
    shells,
    permissionPolicy: config.permissions,
    worktrees,
  });
  let mcp: McpServerHandle;
  try {
    mcp = await mcpStarting;
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    launcher.fail(error);
    crash(lifecycle, tui, error, 'could not start the MCP server');
    return;
  }
  launcher.bind(mcp.launcher);
  warmUp(coordinator);
  tui.attachScratchpads(mcp.scratchpads);
  hosts = new AttachedHosts({ coordinator, mcp });
  recording.tracker.followStates(mcp.states.onChange);
  const ui = tui;
  if (options.resume) {
    void resumeLastRun({
      choice: options.resume,
      coordinator,
      launcher: mcp.launcher,
      catalog,
      adoptChild: mcp.adoptChild,
      tellAgent: mcp.tellAgent,
      // A fresh shell over the same ledger (seq numbers go on), in the directory it was last in.
      reopenShell: async (pane, place) =>
        (await shells.spawn({ name: place.name, shell: pane.argv[0], workingDir: pane.cwd, env: pane.env, parentId: place.parentId, owner: place.owner })).pane,
      notify: (text, level) => ui.notify(text, level),
    }).catch((error: Error) => ui.notify(`Could not resume the last run: ${error.message}`, 'error'));
  } else {
    const resumable = describeResumable(options.projectDir);
    if (resumable) ui.notify(resumable, 'info');
  }
}

/**
 * This run's log file (src/node/run-log.ts), before any worker but the
 * renderer starts: those inherit it, and the renderer, booted ahead of this
 * bundle, is handed it with its RendererInit (sharedRunLog). Here, in the
 * app's bundle, so starting it loads no module on the way to the first frame.
 */
function startLogging(projectDir: string): void {
  const run = startRunLog();
  // Before the TUI takes the terminal: the line is still there to read after patterm exits.
  if (run.problem) process.stderr.write(`patterm: ${run.problem}; running without a log file\n`);
  pattermLog(`patterm ${VERSION} started (pid ${process.pid}, node ${process.version}) in ${projectDir}`);
  run.prune();
}

/**
 * Once the renderer has drawn its first frame and the MCP server listens: neither waits for these.
 * The PTY host and a spare pane worker boot, so the first spawn starts at once, and the MCP SDK
 * loads, so the first agent to connect finds it (see mcp-sdk.ts). Nothing is lost if they fail:
 * the first spawn and the first connection start what they need themselves, and report what stops them.
 */
function warmUp(coordinator: Coordinator): void {
  coordinator.prewarm().catch(ignoreError('booting the PTY host and a spare pane worker ahead of the first spawn'));
  warmMcpSdk();
}

/** The running TUI, for the crash handlers installed before it existed. */
let crashTui: TuiHost | null = null;

function installCrashHandlers(lifecycle: Lifecycle): void {
  process.on('uncaughtException', (error) => crash(lifecycle, crashTui, error));
  process.on('unhandledRejection', (reason) => crash(lifecycle, crashTui, reason instanceof Error ? reason : new Error(String(reason))));
  // Last resort for any exit path that skipped the lifecycle (process.exit from elsewhere).
  process.on('exit', () => restoreHostTerminal());
}

let crashed = false;

/** Long enough for a live renderer to finish its frame and restore the modes itself. */
const CRASH_RESTORE_TIMEOUT_MS = 1000;

/** Gives the terminal back, reports `error` under `heading` and shuts down with exit code 1. */
function crash(lifecycle: Lifecycle, tui: TuiHost | null, error: Error, heading = 'crashed'): void {
  if (crashed) return;
  crashed = true;
  void (async () => {
    // The terminal first: the renderer stops drawing (so no frame lands after the restore), then
    // the modes and cooked mode come back; only then is the report readable.
    const timeout = new Promise((resolve) => setTimeout(resolve, CRASH_RESTORE_TIMEOUT_MS));
    await Promise.race([tui?.stop().catch(ignoreError('stopping the TUI after a crash')), timeout]);
    restoreHostTerminal();
    process.stderr.write(`patterm: ${heading}: ${error.stack ?? error.message}\n`);
    await lifecycle.shutdown(1);
  })();
}
