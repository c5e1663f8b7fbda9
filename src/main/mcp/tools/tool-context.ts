/**
 * What a tool sees when it runs: who is calling, and the services it may use.
 */
import type { AgentLauncher, CallerIdentity } from '../../contracts.js';
import type { Coordinator } from '../../coordinator.js';
import type { PaneInfo } from '../../../shared/pane-types.js';
import type { ScratchpadStore } from '../../scratchpads/scratchpad-store.js';
import type { ChildRegistry } from '../services/child-registry.js';
import type { IdentityRegistry } from '../services/identity-registry.js';
import type { MessageDelivery } from '../services/message-delivery.js';
import type { ProgressReporter } from '../services/progress-keepalive.js';
import type { TimerService } from '../services/timer-service.js';
import type { AgentStateTracker } from '../../agents/agent-state-tracker.js';
import type { PermissionPolicy } from '../services/permission-policy.js';
import type { Worktrees } from '../../worktrees/worktrees.js';
import type { ShellPanes } from '../../shells/index.js';
import type { CommandNotices } from '../services/command-notices.js';

export interface McpServices {
  coordinator: Coordinator;
  launcher: AgentLauncher;
  identities: IdentityRegistry;
  scratchpads: ScratchpadStore;
  children: ChildRegistry;
  delivery: MessageDelivery;
  timers: TimerService;
  /** Every pane's agent state (busy, waiting_permission, idle, …) with its evidence. */
  states: AgentStateTracker;
  /** Which approvals send_input may give (off unless the user's config turns it on). */
  policy: PermissionPolicy;
  /** How request_human_attention reaches a human: the TUI, or what a headless patterm has instead. */
  attention: HumanAttention;
  /** The project's git worktrees: spawns make them, worktree_* tools inspect and remove them. */
  worktrees: Worktrees;
  /** Shell panes and their command ledgers. */
  shells: ShellPanes;
  /** Who hears of the commands that end in which shell (subscribe_commands). */
  commandNotices: CommandNotices;
}

/** A way to put a request in front of a human. */
export interface HumanAttention {
  /**
   * Puts the request in front of the human; resolves with how (for the result), or throws a
   * ToolError saying why no human can be asked.
   */
  request(pane: PaneInfo, reason: string): Promise<string>;
}

export interface ToolContext {
  caller: CallerIdentity;
  services: McpServices;
  /** Aborted when the client cancels the request or disconnects. */
  signal: AbortSignal;
  /** Wrap any wait that can last more than a few seconds in `progress.during`, so the client does not time it out. */
  progress: ProgressReporter;
}

export function callerPane(context: ToolContext): PaneInfo {
  return context.services.coordinator.info(context.caller.paneId);
}
