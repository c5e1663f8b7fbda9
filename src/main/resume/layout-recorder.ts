/**
 * Keeps this instance's layout record current: after every change to the
 * session tree (a pane added, renamed, exited or closed, a launch fact
 * updated) and every change of an agent's conversation, the record is written
 * again, atomically. Changes in one burst are written once. On the way out
 * the recorder is frozen before the panes are killed, so the record keeps the
 * layout as the user left it, not a tree of killed panes; with nothing left
 * to resume it is removed.
 */
import type { Coordinator, Session } from '../coordinator.js';
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import { DisposableStore, type Event } from '../../shared/events.js';
import { log } from '../../node/patterm-log.js';
import { RECORD_FORMAT, RECORD_VERSION, type ConversationRecord, type LayoutRecord, type PaneRecord, type SessionRecord } from './layout-record.js';
import { ownStartTime, removeRecord, writeRecord } from './record-store.js';

/** Long enough to take a burst of events (a session's children spawning) into one write. */
const COALESCE_MS = 50;

export interface ConversationSource {
  snapshot(paneId: PaneId): ConversationRecord | undefined;
  readonly onChange: Event<PaneId>;
}

export interface LayoutRecorderOptions {
  coordinator: Coordinator;
  /** The record file (record-store.ts recordPath). */
  path: string;
  conversations: ConversationSource;
  clock?: () => number;
}

export class LayoutRecorder {
  private readonly subscriptions = new DisposableStore();
  private readonly startedAt: number;
  private readonly pidStart = ownStartTime();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();
  private frozen = false;
  /** A record file exists that this instance wrote: an empty tree removes it. */
  private written = false;
  /** Writes done (tests and the bench wait on it). */
  writes = 0;

  constructor(private readonly options: LayoutRecorderOptions) {
    this.startedAt = this.now();
    const { coordinator, conversations } = options;
    const changed = () => this.schedule();
    this.subscriptions.add(coordinator.onPaneAdded(changed));
    this.subscriptions.add(coordinator.onPaneChanged(changed));
    this.subscriptions.add(coordinator.onPaneExited(changed));
    this.subscriptions.add(conversations.onChange(changed));
  }

  get path(): string {
    return this.options.path;
  }

  /** The record as it would be written now. */
  snapshot(): LayoutRecord {
    const { coordinator } = this.options;
    const sessions = coordinator
      .listSessions()
      .map((session) => this.sessionRecord(session))
      .filter((session): session is SessionRecord => session !== null);
    return {
      format: RECORD_FORMAT,
      version: RECORD_VERSION,
      instance: { id: coordinator.instanceId, pid: process.pid, pidStart: this.pidStart, startedAt: this.startedAt },
      projectDir: coordinator.projectDir,
      savedAt: this.now(),
      sessions,
    };
  }

  /** Writes whatever is pending, then stops following changes: what the panes do from here (die) is not recorded. */
  async freeze(): Promise<void> {
    if (this.frozen) return this.writing;
    if (this.timer) this.flushNow();
    this.frozen = true;
    this.subscriptions.dispose();
    await this.writing;
  }

  /** Settles once every change seen so far is on disk. */
  async flushed(): Promise<void> {
    if (this.timer) this.flushNow();
    await this.writing;
  }

  private schedule(): void {
    if (this.frozen || this.timer) return;
    this.timer = setTimeout(() => this.flushNow(), COALESCE_MS);
  }

  private flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const record = this.snapshot();
    // One write at a time, in order: the last one written is the newest state.
    this.writing = this.writing.then(() => this.write(record));
  }

  private async write(record: LayoutRecord): Promise<void> {
    try {
      if (record.sessions.length === 0) {
        if (this.written) await removeRecord(this.options.path);
        this.written = false;
      } else {
        await writeRecord(this.options.path, record);
        this.written = true;
      }
      this.writes++;
    } catch (error) {
      // The run goes on without a current record; the last good one stays readable.
      log.warn(`could not write the layout record ${this.options.path}: ${(error as Error).message}`);
    }
  }

  private sessionRecord(session: Session): SessionRecord | null {
    const { coordinator } = this.options;
    if (!coordinator.has(session.rootId)) return null;
    const root = this.paneRecord(coordinator.info(session.rootId));
    if (!root) return null;
    const children = session.childIds
      .filter((id) => coordinator.has(id))
      .map((id) => this.paneRecord(coordinator.info(id)))
      .filter((pane): pane is PaneRecord => pane !== null);
    return { name: session.name, root, children };
  }

  /** Panes started without launch facts (by hand, through the coordinator) cannot be started again, and are left out. */
  private paneRecord(info: PaneInfo): PaneRecord | null {
    const launch = info.launch;
    if (!launch || launch.unrecorded) return null;
    const record: PaneRecord = {
      id: info.id,
      name: info.name,
      kind: launch.kind,
      preset: launch.preset,
      argv: [...launch.argv],
      cwd: launch.lastCwd ?? info.cwd,
      parent: info.parentId,
      owner: info.owner,
      tags: [...(launch.tags ?? [])],
    };
    if (launch.shell !== undefined) record.shell = launch.shell;
    if (launch.env) record.env = { ...launch.env };
    if (launch.workingDir !== undefined) record.workingDir = launch.workingDir;
    if (launch.worktree) record.worktree = { ...launch.worktree };
    if (launch.ledger !== undefined) record.ledger = launch.ledger;
    if (launch.spawnedBy !== undefined && launch.spawnedBy !== info.parentId && launch.spawnedBy !== info.id) record.spawnedBy = launch.spawnedBy;
    if (launch.notifyOnExit !== undefined) record.notifyOnExit = launch.notifyOnExit;
    if (info.ownSize) record.ownSize = { ...info.ownSize };
    if (info.process.status !== 'running') record.exited = { code: info.process.exitCode, signal: info.process.signal };
    const conversation = info.kind === 'agent' ? this.options.conversations.snapshot(info.id) : undefined;
    if (conversation) record.conversation = conversation;
    return record;
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
