/**
 * Carries out what the renderer asks for, through the same coordinator and
 * launcher the MCP tools use (spec §4: a palette spawn and spawn_agent /
 * spawn_process share one machinery). Failures come back as notices. A new
 * pane needs no reply: the renderer focuses panes the user opened when they
 * appear in the model.
 */
import type { BridgeCommand, NoticeLevel } from '../../shared/renderer-protocol.js';
import type { HistorySlice } from '../../shared/pane-types.js';
import { findRowOffThread } from '../threads/cpu-pool.js';
import { nearestRow } from '../../shared/row-numbering.js';

/** Every row a pane's history can hold, and then some: a search covers all of it. */
const HISTORY_FIND_ROWS = 100_000;
import type { AgentLauncher } from '../contracts.js';
import type { ShellPanes } from '../shells/index.js';
import type { Coordinator } from '../coordinator.js';
import { ignoreError, log, logIgnored } from '../../node/patterm-log.js';

export interface ExecutorDeps {
  coordinator: Coordinator;
  launcher: AgentLauncher;
  shells: ShellPanes;
  focus(paneId: string | null): void;
  selectScratchpad(name: string | null): void;
  /** Rows of a pane's history, for the renderer's history reader. */
  sendHistory(paneId: string, slice: HistorySlice): void;
  sendHistoryFound(paneId: string, text: string, row: number): void;
  /** The answer to a jump to a command: its prompt's row number, or -1. */
  sendPromptFound(paneId: string, row: number, direction: -1 | 1): void;
  notify(text: string, level: NoticeLevel): void;
  quit(): void;
}

export class CommandExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  execute(command: BridgeCommand): void {
    const { coordinator } = this.deps;
    // A pane can exit or close between the user's action and its arrival here.
    const gone = 'paneId' in command && command.paneId !== null && !coordinator.has(command.paneId);
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
        coordinator.history(command.paneId, command.first, command.count).then((slice) => this.deps.sendHistory(command.paneId, slice), ignoreError(`reading ${command.paneId}'s history`));
        return;
      case 'history-find':
        void this.findInHistory(command);
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
    try {
      if (command.presetKind === 'agent') {
        const result = await launcher.spawnAgent({ preset: command.preset, initialPrompt: command.initialPrompt, parentId: command.parentId, owner: 'user', name: this.freeName(command.presetName) });
        if (result.submit && !result.submit.submitted) this.deps.notify(`${result.pane.name}: the initial prompt was not confirmed (${result.submit.detail})`, 'warning');
      } else if (command.presetKind === 'shell') {
        // A shell's name names its ledger's directory too: the shells pick a plain one (`<preset>-<n>`).
        await this.deps.shells.spawn({ preset: command.preset, parentId: command.parentId, owner: 'user' });
      } else {
        await launcher.spawnProcess({ preset: command.preset, parentId: command.parentId, owner: 'user', name: this.freeName(command.presetName) });
      }
    } catch (error) {
      this.deps.notify(`Could not start ${command.preset}: ${(error as Error).message}`, 'error');
    }
  }

  private async findInHistory(command: Extract<BridgeCommand, { kind: 'history-find' }>): Promise<void> {
    const { coordinator } = this.deps;
    try {
      const all = await coordinator.history(command.paneId, 0, HISTORY_FIND_ROWS);
      const row = await findRowOffThread({ frame: all.frame, first: all.first, text: command.text, from: command.from, direction: command.direction });
      this.deps.sendHistoryFound(command.paneId, command.text, row);
    } catch (error) {
      logIgnored(`searching ${command.paneId}'s history`, error);
      this.deps.sendHistoryFound(command.paneId, command.text, -1); // the pane closed meanwhile
    }
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
