/**
 * The renderer's actions: focus, session switching, the palette and its
 * sub-palettes, spawning presets, ownership. Keys, clicks, palette entries and
 * config key bindings all end up here, so each action has one implementation.
 */
import type { PaneOwner } from '../shared/pane-types.js';
import { BUILTIN_COMMANDS, builtinCommand, parsePresetCommandId, presetCommandId, type CommandActions } from './commands.js';
import { Palette, type PaletteItem, type PaletteViewSpec } from './palette.js';
import { LOG_READER_ID, type BridgeCommand, type NoticeLevel, type UiPreset } from '../shared/renderer-protocol.js';
import type { UiState } from './ui-state.js';
import { ScratchpadViewer } from './scratchpad-viewer.js';
import { HistoryReader } from './history-reader.js';
import { computeLayout } from './layout.js';
import { statusGlyph } from './theme.js';

/** How long a notice stays in the status line; errors stay longer because they need reading. */
const NOTICE_MS: Record<NoticeLevel, number> = { info: 4000, warning: 5000, error: 10000 };

export class UiController implements CommandActions {
  palette: Palette | null = null;

  constructor(
    private readonly state: UiState,
    private readonly send: (command: BridgeCommand) => void,
    /** Takes the host terminal again and repaints every cell (RendererApp.repaint). */
    private readonly repaint: () => void,
  ) {}

  // ---- notices -----------------------------------------------------------------

  notify(text: string, level: NoticeLevel = 'info', endsWithNewPane = false): void {
    this.state.setNotice(text, level, NOTICE_MS[level], endsWithNewPane);
  }

  // ---- focus -------------------------------------------------------------------

  focusPane(paneId: string): void {
    this.state.focus(paneId);
  }

  switchSession(sessionId: string): void {
    this.state.switchSession(sessionId);
  }

  cycleSession(delta: number): void {
    const sessions = this.state.model.sessions;
    if (sessions.length === 0) return;
    const index = sessions.findIndex((session) => session.id === this.state.activeSessionId);
    const next = sessions[(((index + delta) % sessions.length) + sessions.length) % sessions.length];
    this.switchSession(next.id);
  }

  cyclePane(delta: number): void {
    const session = this.state.activeSession();
    if (!session) return;
    const ids = this.state.sessionPaneIds(session);
    const index = ids.indexOf(this.state.focusedPaneId() ?? '');
    this.focusPane(ids[(((index + delta) % ids.length) + ids.length) % ids.length]);
  }

  // ---- pane actions -------------------------------------------------------------

  setFocusedOwner(owner: PaneOwner): void {
    const pane = this.state.focusedPane();
    if (!pane) return;
    this.send({ kind: 'set-owner', paneId: pane.id, owner });
  }

  closeFocusedPane(): void {
    const pane = this.state.focusedPane();
    if (pane) this.send({ kind: 'close', paneId: pane.id });
  }

  /** A new session for an MCP host outside patterm; its pane shows how to connect one. */
  connectHost(): void {
    this.send({ kind: 'connect-host' });
  }

  quit(): void {
    this.send({ kind: 'quit' });
  }

  /** For a screen something else drew over: nothing on the terminal is trusted any more. */
  redraw(): void {
    this.repaint();
  }

  /** Shows the scratchpad whole in the main area (and in the rail's preview, which feeds it). */
  openScratchpad(name: string): void {
    this.state.chosenScratchpad = name;
    this.state.viewer = new ScratchpadViewer(name);
  }

  closeScratchpad(): void {
    this.state.viewer = null;
  }

  // ---- history -------------------------------------------------------------------

  /**
   * Scrolls the focused pane's history by `delta` rows (negative: back in
   * time). Scrolling back from the live screen opens the reader; scrolling down
   * to the live bottom closes it.
   */
  scrollHistory(delta: number): void {
    const log = this.state.history?.isLog ? this.state.history : null;
    const pane = this.state.focusedPane();
    if ((!pane && !log) || delta === 0) return;
    const reader = log ?? (this.state.history?.paneId === pane!.id ? this.state.history : null);
    if (!reader) {
      if (delta > 0) return; // already live
      this.state.history = new HistoryReader(pane!.id, computeLayout(this.state.cols, this.state.rows).main.rows, -delta);
    } else if (!reader.scrollBy(delta)) {
      this.closeHistory();
      return;
    }
    this.requestHistory();
  }

  /** Opens patterm's log in the history reader, at its end: the latest lines are what the user came for. */
  openLog(): void {
    this.closeScratchpad();
    this.state.history = new HistoryReader(LOG_READER_ID, computeLayout(this.state.cols, this.state.rows).main.rows, 0);
    this.requestHistory();
  }

  scrollHistoryToStart(): void {
    this.state.history?.scrollToStart();
    this.requestHistory();
  }

  closeHistory(): void {
    this.state.history = null;
  }

  /**
   * The host terminal was resized: the pane's lines reflow to the new width,
   * so rows are numbered anew. The reader opens again as far above the live
   * screen as it was (the search carries over), with the main area's new height.
   */
  refitHistory(): void {
    const reader = this.state.history;
    if (!reader) return;
    const linesUp = reader.isLog ? reader.linesAboveLive : Math.max(1, reader.linesAboveLive);
    const refitted = new HistoryReader(reader.paneId, computeLayout(this.state.cols, this.state.rows).main.rows, linesUp);
    refitted.lastSearch = reader.lastSearch;
    this.state.history = refitted;
    this.requestHistory();
  }

  /**
   * Looks for `text` in the focused pane's history, back in time (direction
   * -1) or forward (+1): a new search from the view's first row below the
   * marker, a repeated one (`again`: n, N) from the last match. The answer
   * ('history-found') moves the view to the row found.
   */
  findInHistory(text: string, direction: -1 | 1, again = false): void {
    const reader = this.state.history;
    const top = reader?.topRow;
    if (!reader || top === null || top === undefined || text === '') return;
    if (!again || reader.lastSearch !== text) reader.lastMatch = null;
    reader.lastSearch = text;
    this.send({ kind: 'history-find', paneId: reader.paneId, text, from: reader.lastMatch ?? top + 1, direction });
  }

  /** The answer to findInHistory. */
  showHistoryMatch(paneId: string, text: string, row: number): void {
    const reader = this.state.history;
    if (reader?.paneId !== paneId) return;
    if (row < 0) {
      this.notify(`"${text}" not found in this direction`, 'warning');
      return;
    }
    reader.lastMatch = row;
    reader.jumpTo(row - 1); // the match on the second row: the marker covers the top row's right end
    this.requestHistory();
  }

  /**
   * Moves the history reader to the previous command's start (direction -1)
   * or the next one (+1), by the pane's prompt marks (OSC 133 A), from the row
   * below the marker, where a command jumped to is shown.
   */
  jumpToCommand(direction: -1 | 1): void {
    const reader = this.state.history;
    const top = reader?.topRow;
    if (!reader || top === null || top === undefined) return;
    this.send({ kind: 'history-prompt', paneId: reader.paneId, from: top + 1, direction });
  }

  /** The answer to jumpToCommand. */
  showPrompt(paneId: string, row: number, direction: -1 | 1): void {
    const reader = this.state.history;
    if (reader?.paneId !== paneId) return;
    if (row < 0) {
      this.notify(direction < 0 ? 'No earlier command start in this pane\'s history (its shell marks none, or the pane was resized)' : 'No later command start above the live screen', 'warning');
      return;
    }
    reader.jumpTo(row - 1); // on the second row, as a search match: the marker covers the top row's right end
    this.requestHistory();
  }

  requestHistory(): void {
    const reader = this.state.history;
    if (reader) this.send({ kind: 'history', paneId: reader.paneId, ...reader.request() });
  }

  spawnPreset(preset: UiPreset, child: boolean, initialPrompt?: string, worktree?: string | true): void {
    const parentId = child ? (this.state.activeSession()?.rootId ?? undefined) : undefined;
    this.send({ kind: 'spawn-preset', presetKind: preset.kind, preset: preset.id, presetName: preset.name, initialPrompt: initialPrompt || undefined, parentId, ...(worktree !== undefined ? { worktree } : {}) });
    this.notify(worktree !== undefined ? `Preparing a worktree and starting ${preset.name}…` : `Starting ${preset.name}…`, 'info', true);
  }

  // ---- commands -----------------------------------------------------------------

  /** Runs a command by ID (from a key binding). False when the ID is unknown or out of scope. */
  runCommand(id: string): boolean {
    const builtin = builtinCommand(id);
    if (builtin) {
      if (builtin.when && !builtin.when(this.state)) return false;
      builtin.run(this);
      return true;
    }
    const preset = parsePresetCommandId(id);
    const item = preset && this.presetItems().find((candidate) => candidate.id === id);
    if (!item) return false;
    if (item.disabledReason) this.notify(item.disabledReason, 'error');
    else item.run();
    return true;
  }

  // ---- palette ------------------------------------------------------------------

  openPalette(spec: PaletteViewSpec = this.rootSpec()): void {
    this.palette = new Palette(spec);
  }

  closePalette(): void {
    this.palette = null;
  }

  /** Shows a sub-palette: on top of the open palette, or on its own when a key binding asked. */
  private show(spec: PaletteViewSpec): 'keep-open' {
    if (this.palette) this.palette.push(spec);
    else this.openPalette(spec);
    return 'keep-open';
  }

  rootSpec(): PaletteViewSpec {
    return { title: 'Command palette', kind: 'list', placeholder: 'Type a command', items: () => this.rootItems() };
  }

  private rootItems(): PaletteItem[] {
    const commands: PaletteItem[] = BUILTIN_COMMANDS.filter((command) => !command.when || command.when(this.state)).map((command) => ({
      id: command.id,
      label: command.title,
      detail: this.bindingFor(command.id),
      run: () => command.run(this),
    }));
    // In the empty state the useful entries are the presets; put them first there.
    return this.state.isEmpty ? [...this.presetItems(), ...commands] : [...commands, ...this.presetItems()];
  }

  private bindingFor(id: string): string | undefined {
    const entry = Object.entries(this.state.config.keybindings).find(([, command]) => command === id);
    return entry?.[0];
  }

  presetItems(): PaletteItem[] {
    const session = this.state.activeSession();
    const items: PaletteItem[] = [];
    const entry = (preset: UiPreset, child: boolean): PaletteItem => {
      const verb = preset.kind === 'agent' ? 'Spawn agent' : preset.kind === 'shell' ? 'Start shell' : 'Run process';
      const where = child && session ? ` in ${session.name}` : '';
      const id = presetCommandId(preset.kind, preset.id, child);
      return {
        id,
        label: `${verb}${where}: ${preset.name}`,
        detail: preset.error ?? this.bindingFor(id),
        disabledReason: preset.error ? `Preset ${preset.source.split('/').pop()} cannot be used: ${preset.error}` : undefined,
        run: () => (preset.kind === 'agent' ? this.showPromptFor(preset, child) : this.spawnPreset(preset, child)),
      };
    };
    for (const preset of this.state.model.presets) items.push(entry(preset, false));
    if (session) for (const preset of this.state.model.presets) if (!preset.error) items.push(entry(preset, true));
    return items;
  }

  private showPromptFor(preset: UiPreset, child: boolean): 'keep-open' {
    return this.show(this.promptSpec(preset, child));
  }

  private promptSpec(preset: UiPreset, child: boolean, worktree?: string | true): PaletteViewSpec {
    return {
      title: `Initial prompt for ${preset.name} (optional; Enter starts it)`,
      kind: 'text',
      placeholder: 'What should the agent do first?',
      submit: (text) => this.spawnPreset(preset, child, text.trim() === '' ? undefined : text, worktree),
    };
  }

  /** Presets to start in a new git worktree: in the active session as a child, or as a new session. */
  showWorktreeSpawnList(): 'keep-open' {
    const session = this.state.activeSession();
    return this.show({
      title: 'Spawn in new worktree…',
      kind: 'list',
      placeholder: 'Preset name',
      items: () =>
        this.state.model.presets
          .filter((preset) => !preset.error)
          .map((preset) => ({
            id: `worktree.${preset.kind}.${preset.id}`,
            label: `${preset.kind === 'agent' ? 'Spawn agent' : 'Run process'} in a worktree${session ? ` in ${session.name}` : ''}: ${preset.name}`,
            run: () => this.showWorktreeNameFor(preset, !!session),
          })),
    });
  }

  private showWorktreeNameFor(preset: UiPreset, child: boolean): 'keep-open' {
    return this.show({
      title: `Worktree name for ${preset.name} (branch patterm/<name>; empty: named after the pane)`,
      kind: 'text',
      placeholder: 'e.g. fix-login',
      submit: (text) => {
        const worktree = text.trim() === '' ? true : text.trim();
        // An agent's prompt comes next, in a palette of its own (the one that ran this closes).
        if (preset.kind === 'agent') this.openPalette(this.promptSpec(preset, child, worktree));
        else this.spawnPreset(preset, child, undefined, worktree);
      },
    });
  }

  /** Every worktree patterm made for this project, with what it holds; each opens its actions. */
  showWorktreeReview(): 'keep-open' {
    return this.show({
      title: 'Review worktrees… (removal refuses to lose work)',
      kind: 'list',
      items: () =>
        this.state.model.worktrees.map((worktree) => ({
          id: `worktree.${worktree.name}`,
          label: `${worktree.name}  ${worktree.branch}`,
          detail: [
            worktree.leftover ? 'from an earlier run' : 'this run',
            worktree.present ? `${worktree.changes} changed` : 'directory gone',
            ...(worktree.failed ? ['setup failed'] : []),
          ].join(' · '),
          run: () => this.showWorktreeActions(worktree.name),
        })),
    });
  }

  private showWorktreeActions(name: string): 'keep-open' {
    return this.show({
      title: `Worktree ${name}`,
      kind: 'list',
      items: () => [
        { id: 'remove', label: 'Remove (refused if it would lose work)', run: () => this.send({ kind: 'worktree-remove', name, force: false }) },
        { id: 'force-remove', label: 'Force remove (uncommitted work is lost; an unmerged branch is kept)', run: () => this.send({ kind: 'worktree-remove', name, force: true }) },
      ],
    });
  }

  showSpawnList(): 'keep-open' {
    return this.show({ title: 'Spawn…', kind: 'list', placeholder: 'Preset name', items: () => this.presetItems() });
  }

  showSessionList(): 'keep-open' {
    return this.show({
      title: 'Switch to session…',
      kind: 'list',
      items: () =>
        this.state.model.sessions.map((session) => ({
          id: session.id,
          label: session.name,
          detail: session.id === this.state.activeSessionId ? 'active' : undefined,
          run: () => this.switchSession(session.id),
        })),
    });
  }

  private sessionPaneItems(filter: (status: string) => boolean, run: (id: string) => void): PaletteItem[] {
    const session = this.state.activeSession();
    if (!session) return [];
    return this.state
      .sessionPaneIds(session)
      .map((id) => this.state.pane(id))
      .filter((pane) => pane !== null && filter(pane.status))
      .map((pane) => ({
        id: pane!.id,
        label: `${statusGlyph(pane!)} ${pane!.name}`,
        detail: pane!.parentId === null ? 'orchestrator' : pane!.kind,
        run: () => run(pane!.id),
      }));
  }

  showPaneList(): 'keep-open' {
    return this.show({ title: 'Focus pane…', kind: 'list', items: () => this.sessionPaneItems(() => true, (id) => this.focusPane(id)) });
  }

  showKillList(): 'keep-open' {
    return this.show({
      title: 'Kill child…',
      kind: 'list',
      items: () => this.sessionPaneItems((status) => status === 'running', (paneId) => this.send({ kind: 'kill', paneId })),
    });
  }

  showScratchpadList(): 'keep-open' {
    return this.show({
      title: 'Open scratchpad…',
      kind: 'list',
      items: () =>
        this.state.model.scratchpads.map((pad) => ({
          id: pad.name,
          label: pad.name,
          detail: `${pad.size} B`,
          run: () => this.openScratchpad(pad.name),
        })),
    });
  }

  showRename(): 'keep-open' {
    const pane = this.state.focusedPane();
    return this.show({
      title: `Rename ${pane?.name ?? ''}`,
      kind: 'text',
      initialQuery: pane?.name ?? '',
      submit: (name) => {
        if (pane && name.trim() !== '') this.send({ kind: 'rename', paneId: pane.id, name: name.trim() });
      },
    });
  }
}
