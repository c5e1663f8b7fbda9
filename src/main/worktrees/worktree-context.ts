import type { KeyedLock } from '../../node/keyed-lock.js';
import type { PaneInfo } from '../../shared/pane-types.js';
import type { WorktreeSettings } from './worktree-settings.js';

/** What every worktree operation of one patterm run needs to know. */
export interface WorktreeContext {
  projectDir: string;
  settings: WorktreeSettings;
  /** The patterm run (Coordinator.instanceId): records name it as their maker. */
  instanceId: string;
  /** Defaults to $XDG_STATE_HOME (or ~/.local/state). */
  stateHome?: string;
  /** Serialises creation (choosing a name, git worktree add) and each worktree's removal. */
  lock: KeyedLock<string>;
  /** The panes of this run, to tell which run inside a worktree. */
  panes(): PaneInfo[];
}
