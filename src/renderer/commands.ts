/**
 * Built-in palette commands. Each has a stable ID: config.json binds keys to
 * these IDs, so IDs never change once released even if a title does.
 * Preset entries get IDs too: preset.agent.<name> / preset.process.<name> / preset.shell.<name>
 * (new session) and the same with a ".child" suffix (into the active session).
 */
import type { PresetKind } from '../shared/preset-schema.js';
import type { UiState } from './ui-state.js';

/** The actions commands call; implemented by UiController. */
export interface CommandActions {
  showSpawnList(): 'keep-open';
  showWorktreeSpawnList(): 'keep-open';
  showWorktreeReview(): 'keep-open';
  showSessionList(): 'keep-open';
  showPaneList(): 'keep-open';
  showScratchpadList(): 'keep-open';
  redraw(): void;
  scrollHistory(delta: number): void;
  openLog(): void;
  showKillList(): 'keep-open';
  showRename(): 'keep-open';
  cycleSession(delta: number): void;
  cyclePane(delta: number): void;
  setFocusedOwner(owner: 'user' | 'orchestrator'): void;
  closeFocusedPane(): void;
  connectHost(): void;
  quit(): void;
}

export interface CommandDef {
  id: string;
  title: string;
  /** Whether the command applies to the current focus; out-of-scope commands are not listed. */
  when?: (state: UiState) => boolean;
  run: (actions: CommandActions) => void | 'keep-open';
}

/** The palette's history entry opens this far back: a screenful's worth for most panes. */
const HISTORY_PAGE_LINES = 20;

const hasSession = (state: UiState) => !state.isEmpty;
const hasManySessions = (state: UiState) => state.model.sessions.length > 1;
const hasChildren = (state: UiState) => (state.activeSession()?.childIds.length ?? 0) > 0;
const focusedRunning = (state: UiState) => state.focusedPane()?.status === 'running';

export const BUILTIN_COMMANDS: readonly CommandDef[] = [
  { id: 'patterm.spawn', title: 'Spawn…', run: (a) => a.showSpawnList() },
  { id: 'patterm.worktree.spawn', title: 'Spawn in new worktree…', run: (a) => a.showWorktreeSpawnList() },
  { id: 'patterm.worktree.review', title: 'Review worktrees…', when: (state) => state.model.worktrees.length > 0, run: (a) => a.showWorktreeReview() },
  { id: 'patterm.session.switch', title: 'Switch to session…', when: hasManySessions, run: (a) => a.showSessionList() },
  { id: 'patterm.session.next', title: 'Next session', when: hasManySessions, run: (a) => a.cycleSession(1) },
  { id: 'patterm.session.previous', title: 'Previous session', when: hasManySessions, run: (a) => a.cycleSession(-1) },
  { id: 'patterm.pane.focus', title: 'Focus pane…', when: hasChildren, run: (a) => a.showPaneList() },
  { id: 'patterm.pane.next', title: 'Focus next pane', when: hasChildren, run: (a) => a.cyclePane(1) },
  { id: 'patterm.pane.previous', title: 'Focus previous pane', when: hasChildren, run: (a) => a.cyclePane(-1) },
  {
    id: 'patterm.input.take',
    title: 'Take input control',
    when: (state) => focusedRunning(state) && state.focusedPane()?.owner === 'orchestrator',
    run: (a) => a.setFocusedOwner('user'),
  },
  {
    id: 'patterm.input.release',
    title: 'Release control to orchestrator',
    // Only a child has an orchestrator above it to hand control to.
    when: (state) => focusedRunning(state) && state.focusedPane()?.owner === 'user' && state.focusedPane()?.parentId !== null,
    run: (a) => a.setFocusedOwner('orchestrator'),
  },
  { id: 'patterm.pane.history', title: 'Scroll back through the pane\'s output', when: (state) => state.focusedFrame()?.activeScreen === 'primary', run: (a) => a.scrollHistory(-HISTORY_PAGE_LINES) },
  { id: 'patterm.scratchpad.open', title: 'Open scratchpad…', when: (state) => hasSession(state) && state.model.scratchpads.length > 0, run: (a) => a.showScratchpadList() },
  {
    id: 'patterm.pane.kill',
    title: 'Kill child…',
    when: (state) => {
      const session = state.activeSession();
      return !!session && state.sessionPaneIds(session).some((id) => state.pane(id)?.status === 'running');
    },
    run: (a) => a.showKillList(),
  },
  { id: 'patterm.pane.close', title: 'Close exited pane', when: (state) => !!state.focusedPane() && !focusedRunning(state), run: (a) => a.closeFocusedPane() },
  { id: 'patterm.pane.rename', title: 'Rename…', when: hasSession, run: (a) => a.showRename() },
  { id: 'patterm.log.open', title: "Open patterm's log", run: (a) => a.openLog() },
  { id: 'patterm.host.connect', title: 'Connect an external orchestrator…', run: (a) => a.connectHost() },
  { id: 'patterm.redraw', title: 'Redraw screen', run: (a) => a.redraw() },
  { id: 'patterm.quit', title: 'Quit', run: (a) => a.quit() },
];

/** Reserved: Ctrl-K always opens the palette and cannot be rebound. */
export const PALETTE_COMMAND_ID = 'patterm.palette.open';
export const RESERVED_KEY = 'CTRL_K';

export function presetCommandId(kind: PresetKind, name: string, child: boolean): string {
  return `preset.${kind}.${name}${child ? '.child' : ''}`;
}

export function parsePresetCommandId(id: string): { kind: PresetKind; name: string; child: boolean } | null {
  const match = /^preset\.(agent|process|shell)\.(.+?)(\.child)?$/.exec(id);
  return match ? { kind: match[1] as PresetKind, name: match[2], child: match[3] !== undefined } : null;
}

export function builtinCommand(id: string): CommandDef | undefined {
  return BUILTIN_COMMANDS.find((command) => command.id === id);
}
