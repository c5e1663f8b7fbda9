/**
 * Types messages into agents' input boxes, tagged with who sends them
 * ([orchestrator], [sub-agent:<name>], [system]), through the agent
 * launcher, which handles bracketed paste and confirms the submission. Messages
 * to one pane are delivered one at a time: a timer firing while a report is
 * being typed must not interleave keystrokes in the same input box.
 */
import type { AgentLauncher, SubmitResult } from '../../contracts.js';
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { KeyedLock } from '../../../node/keyed-lock.js';
import { CallerInbox } from './caller-inbox.js';

export type DeliverySource = 'orchestrator' | 'system';

export class MessageDelivery {
  private readonly queue = new KeyedLock<PaneId>();

  constructor(
    private readonly coordinator: Coordinator,
    private readonly launcher: AgentLauncher,
    /** Where messages for an MCP host, which has no input to type into, wait for its next call. */
    readonly inbox: CallerInbox = new CallerInbox(),
  ) {}

  deliver(paneId: PaneId, text: string, source: DeliverySource): Promise<SubmitResult> {
    return this.queue.run(paneId, () => this.submit(paneId, text, source));
  }

  private submit(paneId: PaneId, text: string, source: DeliverySource): Promise<SubmitResult> {
    if (!this.running(paneId)) return Promise.resolve({ submitted: false, attempts: 0, detail: `pane ${JSON.stringify(paneId)} is no longer running` });
    if (this.inbox.keep(paneId, text)) return Promise.resolve({ submitted: true, attempts: 1, detail: 'kept for the MCP host, which gets it with its next tool result' });
    return this.launcher.submit(paneId, text, source);
  }

  /**
   * For patterm's own notices (timers, exits), which no caller is waiting on
   * to retry: while the pane lives but is not at its input (a permission
   * dialog can stay open for minutes), keep trying instead of dropping the
   * notice. Each try releases the queue, so other messages are not held up.
   * `wanted` is asked at each try, once the pane's turn in the queue has come;
   * the result is null when it said the notice is no longer wanted.
   */
  async deliverEventually(paneId: PaneId, text: string, source: DeliverySource, wanted: () => boolean | Promise<boolean> = () => true): Promise<SubmitResult | null> {
    for (;;) {
      const result = await this.queue.run(paneId, async () => ((await wanted()) ? this.submit(paneId, text, source) : null));
      if (result === null) return null;
      if (result.submitted || result.attempts > 0 || !this.running(paneId)) return result;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      if (!this.running(paneId)) return result;
    }
  }

  private running(paneId: PaneId): boolean {
    return this.coordinator.has(paneId) && this.coordinator.info(paneId).process.status === 'running';
  }
}

/** Pause between tries of a notice that found its pane away from its input. */
const RETRY_PAUSE_MS = 500;

/** What the orchestrator sends a child: `[orchestrator] <msg>`. */
export function orchestratorMessage(message: string): string {
  return `[orchestrator] ${message}`;
}

/** What a sub-agent reports to its parent: `[sub-agent:<name>] <msg>`, so the parent knows which child spoke. */
export function subAgentMessage(name: string, message: string): string {
  return `[sub-agent:${name}] ${message}`;
}

/** `[system] <msg>`: patterm itself speaking (timers, exits). */
export function systemMessage(message: string): string {
  return `[system] ${message}`;
}
