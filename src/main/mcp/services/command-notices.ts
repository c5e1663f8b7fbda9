/**
 * subscribe_commands: an agent subscribed to a shell pane is told, in a
 * `[system]` notice, of every command that ends there: the command, who ran
 * it, its exit code and duration, and its last lines of output. The agent
 * that ran a command is not told of its own run (it has the record). Notices
 * follow the rules of all of patterm's notices (parent-notices.ts): typed only
 * when the agent is idle at its prompt.
 */
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { DisposableStore, type Disposable } from '../../../shared/events.js';
import { describeOutcome, lastLines, NOTICE_OUTPUT_LINES, type CommandEndedEvent, type ShellPanes } from '../../shells/index.js';
import type { ParentNotices } from './parent-notices.js';

export class CommandNotices implements Disposable {
  /** Subscribers by shell pane. */
  private readonly subscribers = new Map<PaneId, Set<PaneId>>();
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly coordinator: Coordinator,
    shells: ShellPanes,
    private readonly notices: ParentNotices,
  ) {
    this.disposables.add(shells.onCommandEnded((event) => this.onEnded(event)));
    this.disposables.add(
      coordinator.onPaneExited((pane) => {
        this.subscribers.delete(pane.id);
        for (const set of this.subscribers.values()) set.delete(pane.id);
      }),
    );
  }

  /** True when it is new (false: already subscribed). */
  subscribe(shellId: PaneId, subscriberId: PaneId): boolean {
    let set = this.subscribers.get(shellId);
    if (!set) this.subscribers.set(shellId, (set = new Set()));
    if (set.has(subscriberId)) return false;
    set.add(subscriberId);
    return true;
  }

  /** True when it was subscribed. */
  unsubscribe(shellId: PaneId, subscriberId: PaneId): boolean {
    return this.subscribers.get(shellId)?.delete(subscriberId) ?? false;
  }

  subscribersOf(shellId: PaneId): PaneId[] {
    return [...(this.subscribers.get(shellId) ?? [])];
  }

  private onEnded({ session, record }: CommandEndedEvent): void {
    const subscribers = this.subscribers.get(session.paneId);
    if (!subscribers || subscribers.size === 0) return;
    const tail = lastLines(record.output, NOTICE_OUTPUT_LINES);
    const text = `${session.name}: ${describeOutcome(record)} (seq ${record.seq}, run by ${record.writer})${tail === '' ? '' : `\n${tail}`}`;
    for (const subscriber of subscribers) {
      if (subscriber === record.writer_id || !this.coordinator.has(subscriber)) continue;
      this.notices.tell(subscriber, text);
    }
  }

  dispose(): void {
    this.disposables.dispose();
    this.subscribers.clear();
  }
}
