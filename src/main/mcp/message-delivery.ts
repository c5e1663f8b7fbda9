/**
 * Types messages into agents' input boxes (tags of spec §8) through the agent
 * launcher, which handles bracketed paste and confirms the submission. Messages
 * to one pane are delivered one at a time: a timer firing while a report is
 * being typed must not interleave keystrokes in the same input box.
 */
import type { AgentLauncher, SubmitResult } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { PaneId } from '../../shared/pane-types.js';
import { KeyedLock } from '../scratchpads/keyed-lock.js';

export type DeliverySource = 'orchestrator' | 'system';

export class MessageDelivery {
  private readonly queue = new KeyedLock<PaneId>();

  constructor(
    private readonly coordinator: Coordinator,
    private readonly launcher: AgentLauncher,
  ) {}

  deliver(paneId: PaneId, text: string, source: DeliverySource): Promise<SubmitResult> {
    return this.queue.run(paneId, async () => {
      if (!this.coordinator.has(paneId) || this.coordinator.info(paneId).process.status !== 'running') {
        return { submitted: false, attempts: 0, detail: `pane ${JSON.stringify(paneId)} is no longer running` };
      }
      return this.launcher.submit(paneId, text, source);
    });
  }
}

/** `[orchestrator] <msg>` (spec §8). */
export function orchestratorMessage(message: string): string {
  return `[orchestrator] ${message}`;
}

/** `[sub-agent:<name>] <msg>` (closing note 3). */
export function subAgentMessage(name: string, message: string): string {
  return `[sub-agent:${name}] ${message}`;
}

/** `[system] <msg>`: patterm itself speaking (timers, exits). */
export function systemMessage(message: string): string {
  return `[system] ${message}`;
}
