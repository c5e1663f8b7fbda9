/**
 * Who spawned what through MCP, and who may act on which pane.
 *
 * The coordinator's tree has two levels (a root and its children): a process
 * that a sub-agent spawns sits beside it under the session root. The spawner is remembered
 * here, so that a sub-agent sees and drives only what it spawned, and so that
 * notices (a child exited, or waits for permission or an answer) go to the
 * pane that asked for the child.
 */
import type { CallerIdentity } from '../../contracts.js';
import type { Coordinator } from '../../coordinator.js';
import { DEFAULT_KILL_GRACE_MS } from '../../../node/process-reaper.js';
import type { PaneId, PaneInfo } from '../../../shared/pane-types.js';
import type { Disposable } from '../../../shared/events.js';
import { NEEDS_ANSWER, type AgentState } from '../../../shared/agent-state.js';
import type { AgentStateTracker, StateChange } from '../../agents/agent-state-tracker.js';
import { describeExit } from '../../agents/exit-description.js';
import { OutputWatch } from './output-watch.js';
import { ToolError } from './tool-error.js';
import { warnError } from '../../../node/patterm-log.js';
import type { ParentNotices } from './parent-notices.js';

/** A dialog's text in a notice: one line, and short, since it is typed into the parent's input. */
const NOTICE_DIALOG_CHARS = 300;

export interface ChildRecord {
  paneId: PaneId;
  spawnerId: PaneId;
  notifyOnExit: boolean;
  /** Set when the spawner killed it itself: it already knows, so no notification. */
  killedBySpawner: boolean;
  watch: OutputWatch | null;
}

export interface RecordOptions {
  notifyOnExit: boolean;
  readyPattern?: RegExp | null;
  errorPattern?: RegExp | null;
}

export class ChildRegistry implements Disposable {
  private readonly records = new Map<PaneId, ChildRecord>();
  private readonly subscriptions: Disposable[];
  /** The wait (its `since`) each child's parent was last told of. */
  private readonly toldWait = new Map<PaneId, number>();

  constructor(
    private readonly coordinator: Coordinator,
    private readonly notices: ParentNotices,
    private readonly states: AgentStateTracker,
  ) {
    this.subscriptions = [coordinator.onPaneExited((pane) => this.onExited(pane)), states.onChange((change) => this.onStateChange(change))];
  }

  record(pane: PaneInfo, spawnerId: PaneId, options: RecordOptions): ChildRecord {
    this.forgetClosed();
    const watch = options.readyPattern || options.errorPattern ? new OutputWatch(this.coordinator, pane.id, options.readyPattern ?? null, options.errorPattern ?? null) : null;
    const record: ChildRecord = { paneId: pane.id, spawnerId, notifyOnExit: options.notifyOnExit, killedBySpawner: false, watch };
    this.records.set(pane.id, record);
    // Its session root exited while the spawn was under way: the root's kill cascade (children end with their root) ran
    // before this pane was in the tree, so it gets the same treatment now instead of running on unowned.
    const root = pane.parentId !== null && this.coordinator.has(pane.parentId) ? this.coordinator.info(pane.parentId) : null;
    if (root && root.process.status !== 'running' && this.coordinator.info(pane.id).process.status === 'running') {
      record.killedBySpawner = true;
      void this.coordinator.kill(pane.id, 'SIGTERM', DEFAULT_KILL_GRACE_MS).catch(warnError(`killing ${pane.id}, whose spawner had exited; it may run on`));
    }
    // It may have exited before we got here; it still deserves its notification.
    if (this.coordinator.info(pane.id).process.status !== 'running') this.onExited(this.coordinator.info(pane.id));
    return record;
  }

  /** Children closed since (kill with close, or the TUI) are gone from the tree; their records go too. */
  private forgetClosed(): void {
    for (const [paneId, record] of this.records) {
      if (this.coordinator.has(paneId)) continue;
      record.watch?.dispose();
      this.records.delete(paneId);
    }
    for (const paneId of this.toldWait.keys()) if (!this.coordinator.has(paneId)) this.toldWait.delete(paneId);
  }

  get(paneId: PaneId): ChildRecord | undefined {
    return this.records.get(paneId);
  }

  /** The pane that a child reports to: whoever spawned it, else its session root. */
  parentOf(paneId: PaneId): PaneId | null {
    return this.records.get(paneId)?.spawnerId ?? (this.coordinator.has(paneId) ? this.coordinator.info(paneId).parentId : null);
  }

  /** The orchestrator sees its whole session; a sub-agent sees what it spawned. */
  visibleTo(caller: CallerIdentity): PaneInfo[] {
    if (caller.role === 'orchestrator') return this.coordinator.children(caller.paneId);
    return [...this.records.values()]
      .filter((record) => record.spawnerId === caller.paneId && this.coordinator.has(record.paneId))
      .map((record) => this.coordinator.info(record.paneId));
  }

  /** The pane a tool call targets, or an error that says why the caller may not touch it. */
  resolveTarget(caller: CallerIdentity, childId: string): PaneInfo {
    if (!this.coordinator.has(childId)) {
      throw new ToolError(`no child with child_id ${JSON.stringify(childId)}; list_children shows the ids you can use`);
    }
    if (childId === caller.paneId) {
      throw new ToolError(`child_id ${JSON.stringify(childId)} is your own pane; these tools act on your children (list_children shows them)`);
    }
    if (this.visibleTo(caller).some((pane) => pane.id === childId)) return this.coordinator.info(childId);
    if (caller.role === 'orchestrator') {
      throw new ToolError(`child_id ${JSON.stringify(childId)} belongs to another session; you can only act on the children of your own session`);
    }
    throw new ToolError(
      `child_id ${JSON.stringify(childId)} was not spawned by you; a sub-agent can only act on the processes it spawned itself (list_children shows them)`,
    );
  }

  markKilledBy(caller: CallerIdentity, paneId: PaneId): void {
    const record = this.records.get(paneId);
    if (record && record.spawnerId === caller.paneId) record.killedBySpawner = true;
  }

  private onExited(pane: PaneInfo): void {
    const record = this.records.get(pane.id);
    if (!record || !record.notifyOnExit || record.killedBySpawner) return;
    record.notifyOnExit = false; // once
    if (!this.coordinator.has(record.spawnerId) || this.coordinator.info(record.spawnerId).process.status !== 'running') return;
    void this.notices.tell(record.spawnerId, `${pane.name} exited with ${describeExit(pane.process)}`);
  }

  /**
   * A child agent started waiting for permission or an answer (a new dialog is
   * a new wait): its parent agent hears of it once per wait, and not at all if
   * the child has moved on by the time the parent could read it.
   */
  private onStateChange({ paneId, state }: StateChange): void {
    if (!NEEDS_ANSWER.has(state.state) || !this.coordinator.has(paneId)) return;
    // A dialog lost from a read or two gets its wait back, and was told of already.
    if (this.toldWait.get(paneId) === state.since) return;
    const parentId = this.parentOf(paneId);
    if (parentId === null || !this.coordinator.has(parentId)) return;
    const parent = this.coordinator.info(parentId);
    if (parent.kind !== 'agent' || parent.process.status !== 'running') return;
    this.toldWait.set(paneId, state.since);
    const sameWait = (now: AgentState | null) => now !== null && now.state === state.state && now.since === state.since;
    // Judged afresh just before typing: a dialog answered or replaced meanwhile is not quoted.
    const stillWaiting = async () => this.coordinator.has(paneId) && this.coordinator.info(paneId).process.status === 'running' && sameWait(await this.states.current(paneId));
    void this.notices.tell(parentId, waitingNotice(this.coordinator.info(paneId).name, state), stillWaiting).then((typed) => {
      if (typed || this.toldWait.get(paneId) !== state.since) return;
      this.toldWait.delete(paneId);
      // Dropped while the dialog was missing from a read, and it is back as the same wait: told after all.
      const now = this.states.peek(paneId);
      if (this.coordinator.has(paneId) && sameWait(now)) this.onStateChange({ paneId, state: now!, previous: now!.state });
    });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const record of this.records.values()) record.watch?.dispose();
    this.records.clear();
  }
}

/** "scout is waiting for permission: Bash command rm -rf build Do you want to proceed? …" */
function waitingNotice(name: string, state: AgentState): string {
  const what = state.state === 'waiting_permission' ? 'is waiting for permission' : 'is asking a question';
  const dialog = (state.dialog?.text ?? '').replace(/\s+/g, ' ').trim();
  const shown = dialog.length > NOTICE_DIALOG_CHARS ? `${dialog.slice(0, NOTICE_DIALOG_CHARS)}…` : dialog;
  return `${name} ${what}${shown ? `: ${shown}` : ` (${state.source.detail})`}`;
}
