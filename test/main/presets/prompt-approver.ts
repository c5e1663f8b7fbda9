/**
 * Plays the human at a permission prompt in the e2e suite: when the pane shows
 * its CLI's "may I run this tool?" dialog, note which patterm tool it is for
 * and press Enter (approve once in all three CLIs).
 */
import type { Coordinator } from '../../../src/main/coordinator.js';
import type { PaneId } from '../../../src/shared/pane-types.js';
import { ALL_TOOLS } from '../../../src/main/mcp/index.js';
import type { Vendor } from './agent-world.js';

/** The permission dialog of each CLI, as seen on this machine's versions. */
export const PERMISSION_PROMPT: Record<Vendor, RegExp> = {
  claude: /Do you want to proceed\?/,
  codex: /Allow the \S+ MCP server to run tool/,
  opencode: /Permission required|Allow once/,
};

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

export function approvePrompts(coordinator: Coordinator, paneId: PaneId, vendor: Vendor): Approver {
  const approved: Approver['approved'] = [];
  let showing = false;
  let checking = false;
  const check = async () => {
    if (checking || !coordinator.has(paneId)) return;
    checking = true;
    try {
      const grid = await coordinator.grid(paneId);
      const text = grid.lines.join('\n');
      const prompt = PERMISSION_PROMPT[vendor].test(text);
      if (prompt && !showing) {
        const around = grid.lines.filter((line) => line.trim() !== '').slice(-14).join('\n');
        approved.push({ tool: toolInPrompt(around), screen: around });
        coordinator.write(paneId, '\r', 'user');
      }
      showing = prompt;
    } finally {
      checking = false;
    }
  };
  const subscription = coordinator.onScreenDirty(paneId, () => void check());
  return { approved, dispose: () => subscription.dispose() };
}
