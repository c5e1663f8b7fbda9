/**
 * Builds the renderer's model from the coordinator's tree, the preset catalog
 * and the scratchpad list. The model is small, so it is rebuilt whole and sent
 * whenever any part changes (coalesced to one message per tick).
 */
import { basename } from 'node:path';
import type { PaneInfo } from '../../shared/pane-types.js';
import type { UiModel, UiPane, UiPreset, UiScratchpad, UiWorktree } from '../../shared/renderer-protocol.js';
import type { PresetKind } from '../../shared/preset-schema.js';
import type { Coordinator } from '../coordinator.js';

/** The parts of the preset catalog the palette needs (src/main/presets/preset-catalog.ts has them). */
export interface PresetListing {
  agents: Array<{ id: string; file: string; preset: { name: string } }>;
  processes: Array<{ id: string; file: string; preset: { name: string } }>;
  shells: Array<{ id: string; file: string; preset: { name: string } }>;
  errors: Array<{ kind: PresetKind; file: string; problems: string[] }>;
}

export function uiPane(info: PaneInfo): UiPane {
  return {
    id: info.id,
    sessionId: info.sessionId,
    parentId: info.parentId,
    name: info.name,
    kind: info.kind,
    status: info.process.status,
    exitCode: info.process.exitCode,
    signal: info.process.signal,
    owner: info.owner,
    title: info.title,
    waitingForAnswer: info.waitingForAnswer ?? false,
    ...(info.shell ? { shell: { running: info.shell.running, lastExitCode: info.shell.lastExitCode } } : {}),
  };
}

export function uiPresets(listing: PresetListing): UiPreset[] {
  const loaded = (kind: PresetKind, entries: PresetListing['agents']): UiPreset[] =>
    entries.map((entry) => ({ kind, id: entry.id, name: entry.preset.name, error: null, source: entry.file }));
  const broken: UiPreset[] = listing.errors
    .filter((error) => error.file.endsWith('.json'))
    .map((error) => {
      const id = basename(error.file, '.json');
      return { kind: error.kind, id, name: id, error: error.problems.join('; '), source: error.file };
    });
  return [...loaded('agent', listing.agents), ...loaded('process', listing.processes), ...loaded('shell', listing.shells), ...broken];
}

/** The worktree side of the model: which pane works in which worktree, and the list to review. */
export interface WorktreeView {
  forPane(paneId: string): { branch: string; changes: number } | undefined;
  list(): UiWorktree[];
}

export function buildModel(coordinator: Coordinator, presets: UiPreset[], scratchpads: UiScratchpad[], worktrees: WorktreeView | null = null): UiModel {
  const panes: Record<string, UiPane> = {};
  for (const info of coordinator.allPanes()) {
    const worktree = worktrees?.forPane(info.id);
    panes[info.id] = worktree ? { ...uiPane(info), worktree } : uiPane(info);
  }
  const sessions = coordinator.listSessions().map((session) => ({ ...session, childIds: [...session.childIds] }));
  return { sessions, panes, presets, scratchpads, worktrees: worktrees?.list() ?? [] };
}
