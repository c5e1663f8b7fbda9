/**
 * Plays the human at a permission prompt in the e2e suite: when the pane shows
 * one of its preset's approval dialogs, note which patterm tool it is for and
 * press the preset's approve-once keys.
 */
import type { Coordinator } from '../../../src/main/coordinator.js';
import type { PaneId } from '../../../src/shared/pane-types.js';
import type { AgentPreset } from '../../../src/shared/preset-schema.js';
import { ALL_TOOLS } from '../../../src/main/mcp/index.js';
import { dialogOn } from './preset-dialogs.js';

/**
 * Which patterm tool a dialog asks about: codex names it ("run tool "kill""),
 * claude shows its title ("patterm - Stop a child(…) (MCP)"), opencode its
 * prefixed name (patterm_kill).
 */
function toolInPrompt(text: string): string {
  const named = /run tool "?(\w+)|Call tool patterm_(\w+)/.exec(text);
  if (named) return named[1] ?? named[2];
  const title = /patterm\s*-\s*(.+?)\(/.exec(text)?.[1]?.trim();
  return ALL_TOOLS.find((tool) => tool.title === title)?.name ?? `unknown (${title ?? 'no tool named'})`;
}

export interface Approver {
  approved: { tool: string; screen: string }[];
  dispose(): void;
}

export function approvePrompts(coordinator: Coordinator, paneId: PaneId, preset: AgentPreset): Approver {
  const approved: Approver['approved'] = [];
  let showing = false;
  let checking = false;
  const check = async () => {
    if (checking || !coordinator.has(paneId)) return;
    checking = true;
    try {
      const grid = await coordinator.grid(paneId);
      const dialog = dialogOn(preset, grid.lines);
      const answer = dialog?.kind === 'permission' ? dialog.keys?.approve_once : undefined;
      if (answer && !showing) {
        const around = grid.lines.filter((line) => line.trim() !== '').slice(-14).join('\n');
        approved.push({ tool: toolInPrompt(around), screen: around });
        coordinator.write(paneId, answer, 'user');
      }
      showing = answer !== undefined;
    } finally {
      checking = false;
    }
  };
  const subscription = coordinator.onScreenDirty(paneId, () => void check());
  return { approved, dispose: () => subscription.dispose() };
}
