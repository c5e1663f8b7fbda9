/**
 * patterm's own notices to a parent agent (spec §8 `[system]` tag): a child
 * exited, or waits for permission or an answer. A notice is typed only while
 * the parent agent is idle and its screen has been still for
 * NOTICE_QUIET_MS, so it neither lands in the middle of the agent's turn nor
 * among keys the user is typing into it; until then it waits.
 */
import type { AgentStateTracker } from '../../agents/agent-state-tracker.js';
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { systemMessage, type MessageDelivery } from './message-delivery.js';
import { pattermLog } from '../../../node/patterm-log.js';

/** Typing echoes within a few hundred ms of each key; this much stillness means nobody is typing. */
const NOTICE_QUIET_MS = 700;
/** How long one wait for the parent's idleness lasts before the notice's relevance is checked again. */
const IDLE_WAIT_SLICE_MS = 5000;
const IDLE = new Set(['idle'] as const);

export class ParentNotices {
  constructor(
    private readonly coordinator: Coordinator,
    private readonly delivery: MessageDelivery,
    private readonly states: AgentStateTracker,
  ) {}

  /**
   * Types `[system] <text>` into the parent once it is free. `stillTrue` is
   * asked before typing: a notice about a dialog that was answered meanwhile
   * is dropped.
   */
  tell(parentId: PaneId, text: string, stillTrue: () => boolean = () => true): void {
    void this.deliverWhenFree(parentId, text, stillTrue).catch((error: Error) => pattermLog(`notice to pane ${parentId} (${JSON.stringify(text)}): ${error.message}`));
  }

  private async deliverWhenFree(parentId: PaneId, text: string, stillTrue: () => boolean): Promise<void> {
    if (!this.running(parentId)) return;
    // Only an agent has a turn to wait for; other programs, and an MCP host's inbox, get the notice as before.
    if (this.coordinator.info(parentId).kind === 'agent' && !this.delivery.inbox.has(parentId)) {
      for (;;) {
        const outcome = await this.states.waitFor(parentId, IDLE, IDLE_WAIT_SLICE_MS);
        if (!this.running(parentId) || !stillTrue()) return;
        if (!outcome.matched) continue;
        const { idleMs } = await this.coordinator.grid(parentId);
        if (idleMs >= NOTICE_QUIET_MS && this.states.atReadyPrompt(parentId)) break;
        await new Promise((resolve) => setTimeout(resolve, Math.max(NOTICE_QUIET_MS - idleMs, NOTICE_QUIET_MS / 2)));
      }
    }
    if (!stillTrue()) return;
    const result = await this.delivery.deliverEventually(parentId, systemMessage(text), 'system');
    if (!result.submitted && this.running(parentId)) pattermLog(`notice to pane ${parentId} not confirmed: ${result.detail}`);
  }

  private running(paneId: PaneId): boolean {
    return this.coordinator.has(paneId) && this.coordinator.info(paneId).process.status === 'running';
  }
}
