/**
 * Carries out what the renderer asks for, through the same coordinator and
 * launcher the MCP tools use (a palette spawn and spawn_agent /
 * spawn_process share one machinery). Failures come back as notices. A new
 * pane needs no reply: the renderer focuses panes the user opened when they
 * appear in the model.
 */
import { LOG_READER_ID, type BridgeCommand, type NoticeLevel } from '../../shared/renderer-protocol.js';
import type { HistorySlice, PaneInfo } from '../../shared/pane-types.js';
import { findRowOffThread } from '../threads/cpu-pool.js';
import { nearestRow } from '../../shared/row-numbering.js';
import type { AgentLauncher } from '../contracts.js';
import type { ShellPanes } from '../shells/index.js';
import type { Coordinator } from '../coordinator.js';
import type { Worktrees } from '../worktrees/worktrees.js';
import type { PreparedWorktree } from '../worktrees/worktree-create.js';
import { ignoreError, log, logFile, logIgnored } from '../../node/patterm-log.js';
import { LogHistory } from './log-history.js';

/** Every row a pane's history can hold, and then some: a search covers all of it. */
const HISTORY_FIND_ROWS = 100_000;

export interface ExecutorDeps {
  coordinator: Coordinator;
  launcher: AgentLauncher;
  /** The project's worktrees, or null when the TUI runs without them. */
  worktrees: Worktrees | null;
  /** The tree's change counts and the review list are read again (after a spawn or a removal). */
  refreshWorktrees(): void;
  shells: ShellPanes;
  focus(paneId: string | null): void;
  selectScratchpad(name: string | null): void;
  /** Rows of a pane's history, for the renderer's history reader. */
  sendHistory(paneId: string, slice: HistorySlice): void;
  sendHistoryFound(paneId: string, text: string, row: number): void;
  /** The answer to a jump to a command: its prompt's row number, or -1. */
  sendPromptFound(paneId: string, row: number, direction: -1 | 1): void;
  notify(text: string, level: NoticeLevel): void;
  /** Opens a session for an MCP host outside patterm; resolves with what to tell the user. */
  connectHost(): Promise<string>;
  quit(): void;
}

export class CommandExecutor {
  /** patterm's own log, which the history reader shows as it shows a pane's scrollback. */
  private readonly log = new LogHistory(logFile);

  constructor(private readonly deps: ExecutorDeps) {}

  execute(command: BridgeCommand): void {
    const { coordinator } = this.deps;
    // A pane can exit or close between the user's action and its arrival here.
    const gone = 'paneId' in command && command.paneId !== null && command.paneId !== LOG_READER_ID && !coordinator.has(command.paneId);
    if (gone && command.kind !== 'focus') return;
    switch (command.kind) {
      case 'write':
        coordinator.write(command.paneId, command.bytes, 'user');
        return;
      case 'typed':
        coordinator.noteUserInput(command.paneId);
        return;
      case 'focus':
        this.deps.focus(gone ? null : command.paneId);
        return;
      case 'spawn-preset':
        void this.spawn(command);
        return;
      case 'kill':
        this.attempt(`kill ${coordinator.info(command.paneId).name}`, coordinator.kill(command.paneId));
        return;
      case 'close':
        this.attempt(`close ${coordinator.info(command.paneId).name}`, coordinator.close(command.paneId));
        return;
      case 'set-owner':
        coordinator.setOwner(command.paneId, command.owner);
        return;
      case 'rename':
        coordinator.rename(command.paneId, command.name);
        return;
      case 'select-scratchpad':
        this.deps.selectScratchpad(command.name);
        return;
      case 'history':
        // A failure (the pane closed meanwhile) leaves the reader on what it has; Esc still works.
        this.history(command.paneId, command.first, command.count).then((slice) => this.deps.sendHistory(command.paneId, slice), ignoreError(`reading ${command.paneId}'s history`));
        return;
      case 'history-find':
        void this.findInHistory(command);
        return;
      case 'connect-host':
        this.deps.connectHost().then(
          (told) => this.deps.notify(told, 'info'),
          (error: Error) => this.deps.notify(`Could not open a session for an external orchestrator: ${error.message}`, 'error'),
        );
        return;
      case 'worktree-remove':
        void this.removeWorktree(command.name, command.force);
        return;
      case 'history-prompt':
        coordinator.promptRows(command.paneId).then(
          (rows) => this.deps.sendPromptFound(command.paneId, nearestRow(rows, command.from, command.direction), command.direction),
          ignoreError(`reading ${command.paneId}'s prompt rows`),
        );
        return;
      case 'quit':
        this.deps.quit();
        return;
    }
  }

  private async spawn(command: Extract<BridgeCommand, { kind: 'spawn-preset' }>): Promise<void> {
    const { launcher } = this.deps;
    let name = this.freeName(command.presetName);
    let worktree: PreparedWorktree | null = null;
    try {
      if (command.worktree !== undefined) {
        worktree = await this.prepareWorktree(command, name);
        // Named after the pane, the worktree may have had to take a number: the pane takes the same name.
        if (command.worktree === true && this.freeName(worktree.record.name) === worktree.record.name) name = worktree.record.name;
      }
      const where = worktree ? { workingDir: worktree.cwd, env: worktree.env } : {};
      let pane: PaneInfo;
      if (command.presetKind === 'agent') {
        const result = await launcher.spawnAgent({ preset: command.preset, initialPrompt: command.initialPrompt, parentId: command.parentId, owner: 'user', name, ...where });
        pane = result.pane;
        if (result.submit && !result.submit.submitted) this.deps.notify(`${result.pane.name}: the initial prompt was not confirmed (${result.submit.detail})`, 'warning');
      } else if (command.presetKind === 'shell') {
        // A shell's name names its ledger's directory too: the shells pick a plain one (`<preset>-<n>`).
        pane = (await this.deps.shells.spawn({ preset: command.preset, parentId: command.parentId, owner: 'user', ...(worktree ? { name, ...where } : {}) })).pane;
      } else {
        pane = await launcher.spawnProcess({ preset: command.preset, parentId: command.parentId, owner: 'user', name, ...where });
      }
      if (worktree) await this.deps.worktrees?.attachPane(worktree.record.name, pane);
    } catch (error) {
      const kept = worktree ? ` The worktree ${worktree.record.name} (${worktree.record.path}) is kept.` : '';
      this.deps.notify(`Could not start ${command.preset}: ${(error as Error).message}${kept}`, 'error');
    } finally {
      if (command.worktree !== undefined) this.deps.refreshWorktrees();
    }
  }

  private prepareWorktree(command: Extract<BridgeCommand, { kind: 'spawn-preset' }>, childName: string): Promise<PreparedWorktree> {
    const { coordinator, worktrees } = this.deps;
    if (!worktrees) throw new Error('worktrees are not available in this patterm');
    const sessionId = command.parentId !== undefined && coordinator.has(command.parentId) ? coordinator.info(command.parentId).sessionId : null;
    return worktrees.prepare({ worktree: command.worktree!, child: { name: childName, kind: command.presetKind, preset: command.presetName }, sessionId });
  }

  /** The human may remove any worktree, through the same checks as worktree_remove. */
  private async removeWorktree(name: string, force: boolean): Promise<void> {
    const { worktrees } = this.deps;
    if (!worktrees) return;
    try {
      const result = await worktrees.remove({ kind: 'human' }, name, force);
      if (!result.removed) {
        const reasons = result.reasons.map((reason, index) => `${index + 1}) ${reason}`).join('; ');
        this.deps.notify(`Worktree ${name} not removed: ${reasons} · "Force remove" removes it anyway (an unmerged branch is kept)`, 'error');
        return;
      }
      const branch = result.branchDeleted ? `branch ${result.branch} deleted` : result.branchKept ? `branch ${result.branch} kept: ${result.branchKept}` : `branch ${result.branch} was already gone`;
      this.deps.notify(`Removed worktree ${name}; ${branch}`, 'info');
    } catch (error) {
      this.deps.notify(`Could not remove worktree ${name}: ${(error as Error).message}`, 'error');
    } finally {
      this.deps.refreshWorktrees();
    }
  }

  private async findInHistory(command: Extract<BridgeCommand, { kind: 'history-find' }>): Promise<void> {
    const { coordinator } = this.deps;
    try {
      const all = await this.history(command.paneId, 0, HISTORY_FIND_ROWS);
      const row = await findRowOffThread({ frame: all.frame, first: all.first, text: command.text, from: command.from, direction: command.direction });
      this.deps.sendHistoryFound(command.paneId, command.text, row);
    } catch (error) {
      logIgnored(`searching ${command.paneId}'s history`, error);
      this.deps.sendHistoryFound(command.paneId, command.text, -1); // the pane closed meanwhile
    }
  }

  /** Rows of a pane's history, or of patterm's log, wrapped at the panes' width. */
  private history(paneId: string, first: number, count: number): Promise<HistorySlice> {
    if (paneId === LOG_READER_ID) return this.log.slice(first, count, this.deps.coordinator.paneSize.cols);
    return this.deps.coordinator.history(paneId, first, count);
  }

  /** "bash", then "bash-2", "bash-3"…: tabs and tree entries must be told apart at a glance. */
  private freeName(base: string): string {
    const taken = new Set(this.deps.coordinator.allPanes().map((pane) => pane.name));
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base}-${n}`)) n++;
    return `${base}-${n}`;
  }

  private attempt(what: string, operation: Promise<unknown>): void {
    operation.catch((error: Error) => this.deps.notify(`Could not ${what}: ${error.message}`, 'error'));
  }
}
