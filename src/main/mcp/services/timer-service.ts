/**
 * timer_wait: after the delay, `[system] Your timer [<label>] has completed.`
 * is typed into the pane that set it. Timers die with their pane.
 */
import { randomBytes } from 'node:crypto';
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import type { Disposable } from '../../../shared/events.js';
import { systemMessage, type MessageDelivery } from './message-delivery.js';
import { warnError } from '../../../node/patterm-log.js';

/** An agent looping on timer_wait should not pile up timers without bound. */
export const MAX_TIMERS_PER_PANE = 64;

interface PendingTimer {
  id: string;
  label: string;
  paneId: PaneId;
  handle: ReturnType<typeof setTimeout>;
}

export interface TimerStarted {
  timerId: string;
  label: string;
  firesAt: string;
}

export class TimerService implements Disposable {
  private readonly timers = new Map<string, PendingTimer>();
  private readonly labelCounters = new Map<PaneId, number>();
  private readonly subscription: Disposable;

  constructor(
    coordinator: Coordinator,
    private readonly delivery: MessageDelivery,
  ) {
    this.subscription = coordinator.onPaneExited((pane) => this.cancelForPane(pane.id));
  }

  start(paneId: PaneId, seconds: number, label?: string): TimerStarted {
    const pending = [...this.timers.values()].filter((timer) => timer.paneId === paneId).length;
    if (pending >= MAX_TIMERS_PER_PANE) {
      throw new Error(`you already have ${pending} timers pending; the limit is ${MAX_TIMERS_PER_PANE}. Wait for one to complete first.`);
    }
    const id = `timer-${randomBytes(4).toString('hex')}`;
    const finalLabel = label ?? this.nextLabel(paneId);
    const handle = setTimeout(() => this.fire(id), seconds * 1000);
    this.timers.set(id, { id, label: finalLabel, paneId, handle });
    return { timerId: id, label: finalLabel, firesAt: new Date(Date.now() + seconds * 1000).toISOString() };
  }

  pendingFor(paneId: PaneId): number {
    return [...this.timers.values()].filter((timer) => timer.paneId === paneId).length;
  }

  private nextLabel(paneId: PaneId): string {
    const n = (this.labelCounters.get(paneId) ?? 0) + 1;
    this.labelCounters.set(paneId, n);
    return `timer-${n}`;
  }

  private fire(id: string): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    this.timers.delete(id);
    void this.delivery.deliverEventually(timer.paneId, systemMessage(`Your timer [${timer.label}] has completed.`), 'system').catch(warnError(`delivering timer ${timer.label} to ${timer.paneId}; it is lost`));
  }

  private cancelForPane(paneId: PaneId): void {
    for (const timer of this.timers.values()) {
      if (timer.paneId !== paneId) continue;
      clearTimeout(timer.handle);
      this.timers.delete(timer.id);
    }
    this.labelCounters.delete(paneId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer.handle);
    this.timers.clear();
    this.subscription.dispose();
  }
}
