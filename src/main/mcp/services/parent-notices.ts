/**
 * patterm's own notices to a parent agent, tagged `[system]`: a child
 * exited, or waits for permission or an answer. A notice is typed only while
 * the parent agent is idle and its screen has been still for
 * NOTICE_QUIET_MS, so it neither lands in the middle of the agent's turn nor
 * among keys the user is typing into it; until then it waits.
 */
import type { AgentStateTracker } from '../../agents/agent-state-tracker.js';
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { systemMessage, type MessageDelivery } from './message-delivery.js';
import { log, logIgnored } from '../../../node/patterm-log.js';

/** Typing echoes within a few hundred ms of each key; this much stillness means nobody is typing. */
const NOTICE_QUIET_MS = 700;
/** How long one wait for the parent's idleness lasts before the notice's relevance is checked again. */
const IDLE_WAIT_SLICE_MS = 5000;
const IDLE = new Set(['idle'] as const);

/** Whether a notice still says something true; asked just before it is typed. */
export type StillTrue = () => boolean | Promise<boolean>;

export class ParentNotices {
  constructor(
    private readonly coordinator: Coordinator,
    private readonly delivery: MessageDelivery,
    private readonly states: AgentStateTracker,
  ) {}

  /**
   * Types `[system] <text>` into the parent once it is free. `stillTrue` is
   * asked before each try at typing: a notice about a dialog that was answered
   * or replaced meanwhile is dropped. Resolves with whether it was typed.
   */
  tell(parentId: PaneId, text: string, stillTrue: StillTrue = () => true): Promise<boolean> {
    // A parent that exited meanwhile needs no notice; one still running has lost it.
    return this.deliverWhenFree(parentId, text, stillTrue).catch((error: unknown) => {
      logIgnored(`notice to pane ${parentId} (${JSON.stringify(text)}); it is lost`, error, this.running(parentId) ? 'warn' : 'debug');
      return false;
    });
  }

  private async deliverWhenFree(parentId: PaneId, text: string, stillTrue: StillTrue): Promise<boolean> {
    if (!this.running(parentId)) return false;
    // Only an agent has a turn to wait for; other programs, and an MCP host's inbox, get the notice as before.
    if (this.coordinator.info(parentId).kind === 'agent' && !this.delivery.inbox.has(parentId)) {
      for (;;) {
        const outcome = await this.states.waitFor(parentId, IDLE, IDLE_WAIT_SLICE_MS);
        if (!this.running(parentId) || !(await stillTrue())) return false;
        if (!outcome.matched) continue;
        const { idleMs } = await this.coordinator.grid(parentId);
        if (idleMs >= NOTICE_QUIET_MS && this.states.atReadyPrompt(parentId)) break;
        await new Promise((resolve) => setTimeout(resolve, Math.max(NOTICE_QUIET_MS - idleMs, NOTICE_QUIET_MS / 2)));
      }
    }
    const result = await this.delivery.deliverEventually(parentId, systemMessage(text), 'system', stillTrue);
    if (result === null) return false;
    if (!result.submitted && this.running(parentId)) log.warn(`notice to pane ${parentId} not confirmed, so it may be lost: ${result.detail}`);
    return true;
  }

  private running(paneId: PaneId): boolean {
    return this.coordinator.has(paneId) && this.coordinator.info(paneId).process.status === 'running';
  }
}
