/**
 * The coordinator side of the TUI: puts the host terminal in raw mode, starts
 * the renderer thread and feeds it (stdin bytes, the model, the focused pane's
 * frames), carries out the commands it sends back, and resizes every PTY when
 * the host terminal resizes.
 */
import type { Worker } from 'node:worker_threads';
import { watch, type FSWatcher } from 'node:fs';
import { DisposableStore, type Disposable } from '../../shared/events.js';
import { paneSizeFor } from '../../renderer/layout.js';
import type { FromRendererMessage, NoticeLevel, UiConfig, UiPreset, UiScratchpad } from '../../shared/renderer-protocol.js';
import type { AgentLauncher } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import { CommandExecutor } from './command-executor.js';
import { FramePump } from './frame-pump.js';
import { JobControl } from './job-control.js';
import { RendererHost } from './renderer-host.js';
import { ScratchpadFeed, type ScratchpadSource } from './scratchpad-feed.js';
import { markModesRestored, markTerminalTaken, restoreHostTerminal } from './terminal-restore.js';
import { ignoreError, log, logIgnored, pattermLog, sharedRunLog } from '../../node/patterm-log.js';
import { buildModel, uiPresets, type PresetListing } from './ui-model.js';
import type { ShellPanes } from '../shells/index.js';
import { ClipboardForwarding, DEFAULT_CLIPBOARD, type ClipboardSettings } from './clipboard-forwarding.js';
import { WorktreeFeed } from './worktree-feed.js';
import type { Worktrees } from '../worktrees/worktrees.js';

export interface TuiOptions {
  coordinator: Coordinator;
  launcher: AgentLauncher;
  /** Shell panes: the palette's shell presets start them. */
  shells: ShellPanes;
  /** Re-read when the preset directories change. */
  presets: { listing(): PresetListing; directories: string[] };
  config: UiConfig;
  /** Whether panes' OSC 52 clipboard writes reach the host terminal (default: dropped, told once). */
  clipboard?: ClipboardSettings;
  /** The user chose Quit (or Ctrl-D on the empty canvas). */
  onQuit(): void;
  /** The renderer thread died: the caller restores the terminal and shuts down. */
  onCrash(error: Error): void;
  /** The renderer has drawn its first frame: work that must not delay it can start. */
  onRendererReady?(): void;
  /** A renderer thread booted ahead (bootRendererThread); otherwise start() boots one. */
  rendererThread?: Worker;
  /** "Connect an external orchestrator…": opens a session for an MCP host; resolves with what to tell the user. */
  connectHost(): Promise<string>;
  /** The project's git worktrees: spawned into from the palette, shown in the tree, reviewed and removed. */
  worktrees?: Worktrees;
}

/** Used when the host does not report a size (it always should for a TTY). */
const FALLBACK_SIZE = { cols: 80, rows: 24 };
/** A preset editor's save is several events; re-read once after they settle. */
const PRESET_RELOAD_DEBOUNCE_MS = 150;

export class TuiHost implements Disposable {
  private readonly disposables = new DisposableStore();
  private renderer: RendererHost | null = null;
  private pump: FramePump | null = null;
  private executor: CommandExecutor | null = null;
  private feed: ScratchpadFeed | null = null;
  private worktreeFeed: WorktreeFeed | null = null;
  private presets: UiPreset[] = [];
  private scratchpads: UiScratchpad[] = [];
  private modelQueued = false;
  private readonly bells = new Set<string>();
  private stopped = false;
  private stopping: Promise<void> | null = null;

  constructor(private readonly options: TuiOptions) {}

  start(): void {
    const stdin = process.stdin;
    if (!stdin.isTTY || !process.stdout.isTTY) throw new Error('patterm needs a terminal: stdin and stdout must be a TTY');
    const { coordinator } = this.options;
    const size = this.hostSize();
    this.sizePanes(size);

    markTerminalTaken();
    stdin.setRawMode(true);
    // The renderer reads the terminal (fd 0) and draws to it (fd 1) itself; this thread only set raw mode.
    const inputActivity = coordinator.inputActivity.buffer;
    const init = { cols: size.cols, rows: size.rows, inputFd: 0, outputFd: 1, inputActivity, runLog: sharedRunLog() };
    const renderer = (this.renderer = new RendererHost(init, this.options.rendererThread));
    renderer.onCrash((error) => this.options.onCrash(error));
    renderer.onMessage((message) => this.onRendererMessage(message));
    this.disposables.add(new JobControl(renderer));

    this.pump = new FramePump(coordinator, (paneId, port) => {
      if (port && paneId) renderer.post({ t: 'frame-port', paneId, port, input: coordinator.directInput(paneId) }, [port]);
      else renderer.post({ t: 'frame-port', paneId: null, port: null });
    });
    const worktrees = this.options.worktrees ?? null;
    if (worktrees) {
      const running = (paneId: string) => coordinator.has(paneId) && coordinator.info(paneId).process.status === 'running';
      this.worktreeFeed = new WorktreeFeed(worktrees, running, () => this.queueModel(), (text, level) => this.notify(text, level));
      this.disposables.add(this.worktreeFeed);
    }
    this.executor = new CommandExecutor({
      coordinator,
      launcher: this.options.launcher,
      worktrees,
      refreshWorktrees: () => void this.worktreeFeed?.refresh(),
      shells: this.options.shells,
      focus: (paneId) => this.pump?.setFocus(paneId),
      selectScratchpad: (name) => this.feed?.select(name),
      sendHistoryFound: (paneId, text, row) => this.renderer?.post({ t: 'history-found', paneId, text, row }),
      sendPromptFound: (paneId, row, direction) => this.renderer?.post({ t: 'history-prompt', paneId, row, direction }),
      sendHistory: (paneId, slice) => this.renderer?.post({ t: 'history', paneId, slice }, [slice.frame.cells.buffer as ArrayBuffer]),
      notify: (text, level) => this.notify(text, level),
      connectHost: () => this.options.connectHost(),
      quit: () => this.options.onQuit(),
    });

    const onResize = () => this.resize();
    process.stdout.on('resize', onResize);
    this.disposables.add({ dispose: () => process.stdout.off('resize', onResize) });

    this.disposables.add(coordinator.onPaneAdded(() => this.queueModel()));
    this.disposables.add(coordinator.onPaneChanged(() => this.queueModel()));
    this.disposables.add(coordinator.onPaneExited(() => {
      this.queueModel();
      void this.worktreeFeed?.refresh();
    }));
    this.disposables.add(coordinator.onContention((info) => renderer.post({ t: 'contention', paneId: info.id })));
    this.disposables.add(coordinator.onAttention(({ paneId, reason }) => renderer.post({ t: 'attention', paneId, reason })));
    const clipboard = new ClipboardForwarding(
      this.options.clipboard ?? DEFAULT_CLIPBOARD,
      (selection, base64) => renderer.post({ t: 'clipboard', selection, base64 }),
      (text) => this.notify(text, 'warning'),
    );
    this.disposables.add(
      coordinator.onPaneSignal(({ paneId, signal }) => {
        if (signal.type === 'cursor-shape') renderer.post({ t: 'cursor-shape', paneId, shape: signal.shape });
        if (signal.type === 'bell') this.queueBell(paneId);
        if (signal.type === 'clipboard') clipboard.handle(coordinator.has(paneId) ? coordinator.info(paneId).name : paneId, signal);
      }),
    );

    this.loadPresets();
    this.watchPresets();
    renderer.post({ t: 'config', config: this.options.config });
    this.queueModel();
    void this.worktreeFeed?.refresh();
  }

  /**
   * The rail lists the project's scratchpads from here on. The store comes
   * with the MCP server, which the app starts after the first frame.
   */
  attachScratchpads(source: ScratchpadSource): void {
    const renderer = this.renderer;
    if (!renderer) throw new Error('TuiHost.attachScratchpads: start() comes first, the feed posts to its renderer');
    if (this.stopped) return; // a quit during start-up: nothing is shown any more
    this.feed = new ScratchpadFeed(
      source,
      (pads) => {
        this.scratchpads = pads;
        this.queueModel();
      },
      (name, text) => renderer.post({ t: 'preview', name, text }),
    );
    this.disposables.add(this.feed);
  }

  private onRendererMessage(message: FromRendererMessage): void {
    switch (message.t) {
      case 'command':
        try {
          this.executor?.execute(message.command);
        } catch (error) {
          this.notify((error as Error).message, 'error');
        }
        break;
      case 'ready':
        this.options.onRendererReady?.();
        break;
      case 'log':
        if (message.level === 'warn') log.warn(message.text);
        else pattermLog(message.text);
        break;
    }
  }

  /** A line in the status line (errors stay longer). */
  notify(text: string, level: NoticeLevel): void {
    this.renderer?.post({ t: 'notice', text, level });
  }

  private hostSize(): { cols: number; rows: number } {
    const cols = process.stdout.columns || FALLBACK_SIZE.cols;
    const rows = process.stdout.rows || FALLBACK_SIZE.rows;
    return { cols, rows };
  }

  /** On SIGWINCH every PTY without a size of its own gets the new main-area size. */
  private resize(): void {
    const size = this.hostSize();
    this.sizePanes(size);
    this.renderer?.post({ t: 'resize', cols: size.cols, rows: size.rows });
  }

  private sizePanes(host: { cols: number; rows: number }): void {
    const pane = paneSizeFor(host.cols, host.rows);
    this.options.coordinator.setPaneSize(pane.cols, pane.rows);
  }

  private loadPresets(): void {
    try {
      const listing = this.options.presets.listing();
      this.presets = uiPresets(listing);
      for (const error of listing.errors.filter((entry) => !entry.file.endsWith('.json'))) this.notify(`${error.file}: ${error.problems.join('; ')}`, 'error');
    } catch (error) {
      this.notify(`Presets could not be loaded: ${(error as Error).message}`, 'error');
    }
    this.queueModel();
  }

  private watchPresets(): void {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const reload = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => this.loadPresets(), PRESET_RELOAD_DEBOUNCE_MS);
    };
    for (const directory of this.options.presets.directories) {
      let watcher: FSWatcher;
      try {
        watcher = watch(directory, reload);
      } catch (error) {
        logIgnored(`watching preset directory ${directory}`, error);
        continue; // a missing directory just has no presets to watch
      }
      watcher.on('error', ignoreError(`watching preset directory ${directory}`));
      this.disposables.add({ dispose: () => watcher.close() });
    }
    this.disposables.add({ dispose: () => timer && clearTimeout(timer) });
  }

  /** One bell message per pane per tick: a program printing BELs in a loop must not flood the renderer. */
  private queueBell(paneId: string): void {
    if (this.bells.size === 0) {
      setImmediate(() => {
        const panes = [...this.bells];
        this.bells.clear();
        if (!this.stopped) for (const id of panes) this.renderer?.post({ t: 'bell', paneId: id });
      });
    }
    this.bells.add(paneId);
  }

  /** One model message per tick, however many panes changed in it. */
  private queueModel(): void {
    if (this.modelQueued || this.stopped) return;
    this.modelQueued = true;
    setImmediate(() => {
      this.modelQueued = false;
      if (this.stopped) return;
      this.renderer?.post({ t: 'model', model: buildModel(this.options.coordinator, this.presets, this.scratchpads, this.worktreeFeed) });
    });
  }

  /** Stops drawing, ends the renderer thread and gives the terminal back. Safe to call again. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      this.disposables.dispose();
      this.pump?.dispose();
      try {
        if (await this.renderer?.stop()) markModesRestored();
      } finally {
        restoreHostTerminal();
        process.stdin.pause();
      }
    })();
    return this.stopping;
  }

  dispose(): void {
    void this.stop();
  }
}
