/**
 * Shell panes: starting them (spawn_shell, the palette's shell presets), the
 * live ones by pane and by name, and their ledgers, live or not. A shell's
 * ledger is found by its name in the project's state directory
 * (shell-ledger.ts), so a shell pane started under a name used before
 * continues that ledger; `lastCwd` says where that shell last was.
 */
import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve as resolvePath } from 'node:path';
import type { Coordinator } from '../coordinator.js';
import type { PaneId, PaneInfo, PaneOwner, PaneSize } from '../../shared/pane-types.js';
import type { ShellEvent } from '../../shared/shell-mark-tracker.js';
import { DisposableStore, Emitter } from '../../shared/events.js';
import { PANE_NAME_PATTERN, PANE_NAME_RULE, paneNameBase } from '../../shared/pane-name.js';
import { assertProgramExists, assertWorkingDir } from '../presets/program-lookup.js';
import { UnknownPresetError } from '../presets/agent-launcher.js';
import type { PresetCatalog } from '../presets/preset-catalog.js';
import { installIntegrationFiles, type IntegrationFiles } from './integration-files.js';
import { shellLaunch } from './shell-launch.js';
import { ShellLedger, readLedger, shellsDir } from './shell-ledger.js';
import { ShellSession } from './shell-session.js';
import { recordsFromLedger, type CommandRecord } from './command-record.js';
import type { OutputCap } from './command-output.js';

export interface ShellSpawnRequest {
  /** A shell preset (presets/shells/) whose fields are the defaults of those below. */
  preset?: string;
  /** The shell's name: its pane's and its ledger's. Default `<shell>-<n>`. */
  name?: string;
  /** A shell program (name on PATH or path). Default: $SHELL when it is bash or zsh, else bash. */
  shell?: string;
  /** Relative to the project directory; `~/` is the home directory. Default: the project directory. */
  workingDir?: string;
  env?: Record<string, string>;
  /** patterm's marks (bash and zsh). Default true. */
  integration?: boolean;
  /** A login shell (reads the profile files). Default true. */
  login?: boolean;
  parentId?: PaneId;
  owner?: PaneOwner;
  presetName?: string | null;
  ownSize?: PaneSize;
}

export interface CommandEndedEvent {
  session: ShellSession;
  record: CommandRecord;
}

export class ShellNameError extends Error {
  override readonly name = 'ShellNameError';
}

export interface ShellPanesOptions {
  coordinator: Coordinator;
  /** Where shell presets are looked up; without it, a request naming a preset fails. */
  catalog?: PresetCatalog;
  /** Ledgers go under this XDG state home (default: $XDG_STATE_HOME or ~/.local/state). */
  stateHome?: string;
}

export class ShellPanes {
  private readonly coordinator: Coordinator;
  private readonly catalog: PresetCatalog | null;
  /** Where the project's shell ledgers live. */
  readonly root: string;
  private readonly sessions = new Map<PaneId, ShellSession>();
  /** Names being given to shells still starting. */
  private readonly starting = new Set<string>();
  /** Events of a shell pane that came before its session was made (a fast first prompt). */
  private readonly early = new Map<PaneId, ShellEvent[]>();
  private files: IntegrationFiles | null = null;
  private readonly disposables = new DisposableStore();
  private readonly ended = new Emitter<CommandEndedEvent>();
  /** Every command that ends in any shell pane. */
  readonly onCommandEnded = this.ended.event;

  constructor(options: ShellPanesOptions) {
    this.coordinator = options.coordinator;
    this.catalog = options.catalog ?? null;
    this.root = shellsDir(options.coordinator.projectDir, options.stateHome);
    this.disposables.add(
      this.coordinator.onPaneSignal(({ paneId, signal }) => {
        if (signal.type !== 'shell') return;
        const session = this.sessions.get(paneId);
        if (session) session.onEvent(signal.event);
        else this.early.set(paneId, [...(this.early.get(paneId) ?? []), signal.event]);
      }),
    );
    this.disposables.add(
      this.coordinator.onPaneExited((pane) => {
        this.early.delete(pane.id);
        this.sessions.get(pane.id)?.onExit(pane.process.exitCode);
      }),
    );
  }

  /** The live shell session of a pane, if it is a shell pane. */
  session(paneId: PaneId): ShellSession | undefined {
    return this.sessions.get(paneId);
  }

  /** The shell pane of this name that is still running, if any. */
  liveByName(name: string): ShellSession | undefined {
    for (const session of this.sessions.values()) if (session.name === name && !session.exited) return session;
    return undefined;
  }

  /**
   * The working directory a shell starts in: the one place it is worked out,
   * so a caller that has another root (a worktree) passes it as `workingDir`.
   */
  workingDir(workingDir: string | undefined): string {
    const expanded = workingDir === undefined ? '.' : workingDir === '~' ? process.env.HOME ?? '.' : workingDir.startsWith('~/') ? join(process.env.HOME ?? '', workingDir.slice(2)) : workingDir;
    return resolvePath(this.coordinator.projectDir, expanded);
  }

  async spawn(asked: ShellSpawnRequest): Promise<{ pane: PaneInfo; session: ShellSession }> {
    const request = this.withPreset(asked);
    const program = request.shell ?? defaultShell();
    const cwd = this.workingDir(request.workingDir);
    assertWorkingDir(cwd, request.workingDir);
    const env = { ...process.env, ...request.env };
    assertProgramExists(program, cwd, env.PATH);
    const name = request.name ?? this.freeName(paneNameBase(request.presetName ?? '', basename(program)));
    if (!PANE_NAME_PATTERN.test(name)) throw new ShellNameError(`name ${JSON.stringify(name)} must be ${PANE_NAME_RULE}`);
    const live = this.liveByName(name);
    if (live || this.starting.has(name)) {
      throw new ShellNameError(`a shell named ${JSON.stringify(name)} is already running${live ? ` (child_id ${live.paneId})` : ''}; its ledger can have one live shell at a time. Choose another name`);
    }
    this.starting.add(name);
    this.forgetClosed();
    try {
      const ledger = await ShellLedger.open(this.root, name);
      const nonce = randomBytes(16).toString('hex');
      const integration = request.integration ?? true;
      const launch = shellLaunch({ program, integration, login: request.login ?? true, nonce, files: integration ? this.integrationFiles() : null, env });
      const pane = await this.coordinator.spawn({
        argv: launch.argv,
        name,
        kind: 'process',
        cwd,
        env: { ...request.env, ...launch.env },
        parentId: request.parentId,
        owner: request.owner,
        presetName: request.presetName ?? null,
        ownSize: request.ownSize,
        shell: { nonce: launch.integrated ? nonce : null, outputDir: ledger.outputDir, tag: randomBytes(4).toString('hex') },
        // What a resume needs to start it again: a fresh shell over this ledger, in its last directory.
        launch: { kind: 'shell', preset: request.preset ?? null, argv: [program], env: request.env, workingDir: request.workingDir, ledger: name, lastCwd: cwd },
      });
      const session = new ShellSession({ paneId: pane.id, name, pid: pane.process.pid, program, nonce: launch.integrated ? nonce : null, ledger, coordinator: this.coordinator, cwd });
      session.onCommandEnded((record) => {
        if (record.cwd && this.coordinator.has(pane.id)) this.coordinator.updateLaunch(pane.id, { lastCwd: record.cwd });
        this.ended.fire({ session, record });
      });
      this.sessions.set(pane.id, session);
      void ledger.append({ type: 'open', at: new Date().toISOString(), pane: pane.id, shell: program, cwd, integration: launch.integrated });
      for (const event of this.early.get(pane.id) ?? []) session.onEvent(event);
      this.early.delete(pane.id);
      if (pane.process.status !== 'running') session.onExit(this.coordinator.info(pane.id).process.exitCode);
      return { pane: this.coordinator.info(pane.id), session };
    } finally {
      this.starting.delete(name);
    }
  }

  /** The request with its preset's fields filled in where the request leaves them out. */
  private withPreset(request: ShellSpawnRequest): ShellSpawnRequest {
    if (request.preset === undefined) return request;
    const entry = this.catalog?.findShell(request.preset);
    if (!entry) throw new UnknownPresetError(`unknown shell preset ${JSON.stringify(request.preset)}; known shell presets: ${this.catalog?.describeShells() ?? 'none are loaded'}`);
    const preset = entry.preset;
    return {
      ...request,
      shell: request.shell ?? preset.shell,
      workingDir: request.workingDir ?? preset.working_dir,
      env: { ...preset.env, ...request.env },
      integration: request.integration ?? preset.shell_integration,
      login: request.login ?? preset.login,
      presetName: request.presetName ?? preset.name,
    };
  }

  /** Sessions of panes closed since (kill with close, the TUI) go: nothing can reach them by id any more. */
  private forgetClosed(): void {
    for (const [paneId, session] of this.sessions) {
      if (this.coordinator.has(paneId)) continue;
      session.dispose();
      this.sessions.delete(paneId);
    }
  }

  /** Where the shell of this name last was, by its live session or its ledger; null for a name never used. */
  async lastCwd(name: string): Promise<string | null> {
    const live = this.liveByName(name);
    if (live) return live.cwd;
    if (!(await this.hasLedger(name))) return null;
    return (await ShellLedger.open(this.root, name)).lastCwd;
  }

  /** The names of every shell with a ledger in this project. */
  async names(): Promise<string[]> {
    try {
      return (await readdir(this.root)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async hasLedger(name: string): Promise<boolean> {
    if (!PANE_NAME_PATTERN.test(name)) return false;
    return stat(join(this.root, name, 'ledger.jsonl')).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  /**
   * The commands in the ledger of the shell `name`, oldest first, with
   * `session` (its live pane, if any) saying which one is still running.
   */
  async history(name: string, cap: OutputCap, session?: ShellSession): Promise<CommandRecord[]> {
    const live = session ?? this.liveByName(name);
    const dir = join(this.root, name);
    const entries = live ? await live.ledger.entries() : await readLedger(join(dir, 'ledger.jsonl'));
    return recordsFromLedger(entries, { dir, runningSeq: live?.runningSeq ?? null, cap });
  }

  /** `<base>-<n>`: the first not held by a live shell or a running pane of any session. */
  private freeName(base: string): string {
    const taken = new Set(this.coordinator.allPanes().filter((pane) => pane.process.status === 'running').map((pane) => pane.name));
    for (let n = 1; ; n++) {
      const name = `${base}-${n}`;
      if (!taken.has(name) && !this.starting.has(name) && !this.liveByName(name)) return name;
    }
  }

  private integrationFiles(): IntegrationFiles {
    this.files ??= installIntegrationFiles();
    return this.files;
  }

  dispose(): void {
    this.disposables.dispose();
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
    this.ended.dispose();
    this.files?.dispose();
    this.files = null;
  }
}

/** The user's login shell when patterm integrates with it, else bash. */
function defaultShell(): string {
  const shell = process.env.SHELL;
  return shell && /(^|\/)(bash|zsh)$/.test(shell) ? shell : 'bash';
}
