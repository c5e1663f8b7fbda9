/**
 * Follows which conversation each agent pane holds, the way its preset's
 * `conversation` section says (conversation-schema.ts):
 * - `chosen_uuid`: patterm picks the id and passes it at start; the CLI's
 *   hook (`report`) tells of each new one (claude's `/clear`) and where it is kept;
 * - `open_file`: the conversation file the pane's processes hold open;
 * - `listing`: the CLI's own listing, run after the pane's turns.
 * What it learns goes into the layout record; an id it cannot establish is
 * recorded as unknown, with the reason.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AgentPreset } from '../../shared/preset-schema.js';
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import { fillArgs, readField, type Conversation, type ConversationReport } from '../../shared/conversation-schema.js';
import { compilePattern } from '../../shared/pattern.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../../shared/events.js';
import { liveProcessStats, type ProcStat } from '../../node/process-reaper.js';
import { log, logIgnored } from '../../node/patterm-log.js';
import type { ConversationHooks, PreparedConversation, ResumedConversation } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { StateChange } from '../agents/agent-state-tracker.js';
import type { ConversationRecord } from './layout-record.js';
import { openReportChannel, shellWord, type ReportChannel } from './conversation-report.js';
import { findOpenConversation } from './open-conversation-files.js';
import { ListingRuns, type ListingFollower } from './listing-runs.js';

/** How often reports are read and open files looked at: a turn takes longer than this. */
const TICK_MS = 1000;

export interface ConversationTrackerOptions {
  coordinator: Coordinator;
  /** The command a CLI's hook runs to report to `file` (patterm's `conversation-report`), as argv. */
  reportCommand(file: string): string[];
  clock?: () => number;
  tickMs?: number;
}

interface Followed extends ListingFollower {
  config: Conversation;
  presetName: string;
  rootPid: number;
  record: ConversationRecord;
  report: ReportChannel | null;
  pattern: RegExp | null;
  running: boolean;
}

export class ConversationTracker implements ConversationHooks, Disposable {
  private readonly followed = new Map<PaneId, Followed>();
  /** Panes whose preset has no conversation section: recorded, never followed. */
  private readonly untracked = new Map<PaneId, ConversationRecord>();
  /** Ids taken by a pane of this run (or resumed): a listing never hands one out again. */
  private readonly claimed = new Set<string>();
  private readonly changed = new Emitter<PaneId>();
  private readonly subscriptions = new DisposableStore();
  private readonly listings: ListingRuns;
  private timer: ReturnType<typeof setInterval> | null = null;
  readonly onChange: Event<PaneId> = this.changed.event;

  constructor(private readonly options: ConversationTrackerOptions) {
    this.listings = new ListingRuns({ claimed: this.claimed, clock: () => this.now(), update: (paneId, record) => this.update(paneId, record), panes: () => this.followed.values() });
    this.subscriptions.add(options.coordinator.onPaneChanged((pane) => this.forgetClosed(pane.id)));
  }

  prepare(preset: AgentPreset, resume: ResumedConversation | null): PreparedConversation {
    const config = preset.conversation;
    const at = this.now();
    if (!config) {
      const record: ConversationRecord = { status: 'untracked', id: null, provenance: 'none', reason: `preset ${JSON.stringify(preset.name)} has no "conversation" section, so patterm cannot tell which conversation it holds`, at };
      return { args: [], started: (pane) => this.follow(pane, null, preset, record, null), abandoned: () => undefined };
    }
    let args: string[];
    let record: ConversationRecord;
    if (resume) {
      args = fillArgs(config.resume_args, '{id}', resume.id);
      record = { status: 'known', id: resume.id, provenance: 'resumed from the layout record', ...(resume.file ? { file: resume.file } : {}), at };
      this.claimed.add(resume.id);
    } else if (config.id.kind === 'chosen_uuid') {
      const id = randomUUID();
      args = fillArgs(config.id.args, '{id}', id);
      record = { status: 'none_yet', id, provenance: 'chosen by patterm at start', at };
      this.claimed.add(id);
    } else {
      args = [];
      record = { status: 'none_yet', id: null, provenance: config.id.kind === 'open_file' ? 'no conversation file open yet' : 'not in the listing yet', at };
    }
    const report = config.report ? openReportChannel() : null;
    if (config.report && report) args.push(...reportArgs(config.report, this.options.reportCommand(report.file)));
    return {
      args,
      started: (pane) => this.follow(pane, config, preset, record, report),
      abandoned: () => report?.dispose(),
    };
  }

  submitted(paneId: PaneId, startedAt: number): void {
    const pane = this.followed.get(paneId);
    if (!pane) return;
    pane.activity.push([startedAt, this.now()]);
    if (pane.config.id.kind === 'listing') this.listings.request(pane, 'after a message was submitted');
  }

  /** Turns seen on screen (busy spans) are evidence for a listing, and the end of one is when to list. */
  followStates(onStateChange: Event<StateChange>): void {
    this.subscriptions.add(
      onStateChange(({ paneId, state, previous }) => {
        const pane = this.followed.get(paneId);
        if (!pane) return;
        if (state.state === 'busy' && previous !== 'busy') pane.busySince = state.since;
        if (previous === 'busy' && state.state !== 'busy' && pane.busySince !== null) {
          pane.activity.push([pane.busySince, state.since]);
          pane.busySince = null;
          if (pane.config.id.kind === 'listing') this.listings.request(pane, 'after a turn');
        }
      }),
    );
  }

  snapshot(paneId: PaneId): ConversationRecord | undefined {
    const pane = this.followed.get(paneId);
    return pane ? { ...pane.record } : this.untracked.get(paneId);
  }

  /** Settles once the listings asked for so far have run (tests). */
  listingsSettled(): Promise<void> {
    return this.listings.settled();
  }

  /** Reads reports and open files now, as the timer would (tests). */
  tickNow(): void {
    this.tick();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.subscriptions.dispose();
    for (const pane of this.followed.values()) pane.report?.dispose();
    this.followed.clear();
    this.changed.dispose();
  }

  private follow(pane: PaneInfo, config: Conversation | null, preset: AgentPreset, record: ConversationRecord, report: ReportChannel | null): void {
    if (!config) {
      this.untracked.set(pane.id, record);
      this.changed.fire(pane.id);
      return;
    }
    const followed: Followed = {
      paneId: pane.id,
      cwd: pane.cwd,
      spawnedAt: pane.createdAt,
      exitedAt: null,
      activity: [],
      busySince: null,
      env: { ...process.env, ...preset.env },
      currentCreated: null,
      config,
      presetName: preset.name,
      rootPid: pane.process.pid,
      record,
      report,
      pattern: config.id.kind === 'open_file' ? compilePattern(config.id.path_pattern) : null,
      running: true,
    };
    this.followed.set(pane.id, followed);
    this.changed.fire(pane.id);
    void this.options.coordinator.exitPromise(pane.id).then(() => {
      // The last reports it made before it ended still count.
      this.tickPane(followed, null);
      followed.running = false;
      followed.exitedAt = this.now();
      followed.report?.dispose();
      followed.report = null;
    });
    this.timer ??= setInterval(() => this.tick(), this.options.tickMs ?? TICK_MS);
    this.timer.unref();
  }

  private forgetClosed(paneId: PaneId): void {
    if (this.options.coordinator.has(paneId)) return;
    const pane = this.followed.get(paneId);
    pane?.report?.dispose();
    this.followed.delete(paneId);
    this.untracked.delete(paneId);
  }

  private tick(): void {
    const running = [...this.followed.values()].filter((pane) => pane.running);
    if (running.length === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      return;
    }
    // One scan of the process table per tick, shared by every pane that needs it.
    let stats: ProcStat[] | null = null;
    const lazyStats = () => (stats ??= liveProcessStats());
    for (const pane of running) {
      try {
        this.tickPane(pane, lazyStats);
      } catch (error) {
        logIgnored(`following the conversation of pane ${pane.paneId}`, error);
      }
    }
  }

  private tickPane(pane: Followed, stats: (() => ProcStat[]) | null): void {
    if (pane.report && pane.config.report) for (const report of pane.report.readNew()) this.onReport(pane, pane.config.report, report);
    if (pane.record.status === 'none_yet' && pane.record.id !== null && pane.record.file && existsSync(pane.record.file)) {
      this.update(pane.paneId, { ...pane.record, status: 'known', at: this.now() });
    }
    if (pane.pattern && stats && pane.config.id.kind === 'open_file') this.lookAtOpenFiles(pane, pane.pattern, pane.config.id.confirm, stats());
  }

  private onReport(pane: Followed, report: ConversationReport, value: unknown): void {
    const id = readField(value, report.fields.id);
    if (typeof id !== 'string' || id === '') {
      log.warn(`pane ${pane.paneId} (${pane.presetName}): a conversation report without ${report.fields.id}: ${JSON.stringify(value).slice(0, 200)}`);
      return;
    }
    const source = report.fields.source !== undefined ? readField(value, report.fields.source) : undefined;
    const file = report.fields.file !== undefined ? readField(value, report.fields.file) : undefined;
    this.claimed.add(id);
    const known = typeof file === 'string' && existsSync(file);
    this.update(pane.paneId, {
      status: known || (pane.record.status === 'known' && pane.record.id === id) ? 'known' : 'none_yet',
      id,
      provenance: `reported by the CLI's hook${typeof source === 'string' ? ` (source ${source})` : ''}`,
      ...(typeof file === 'string' ? { file } : {}),
      at: this.now(),
    });
  }

  private lookAtOpenFiles(pane: Followed, pattern: RegExp, confirm: { id_field?: string; cwd_field?: string } | undefined, stats: ProcStat[]): void {
    const finding = findOpenConversation({ rootPid: pane.rootPid, pattern, cwd: pane.cwd, confirm, stats });
    if (finding.found) {
      const { id, file, pid } = finding.found;
      if (pane.record.status === 'known' && pane.record.id === id && pane.record.file === file) return;
      this.claimed.add(id);
      const of = finding.candidates > 1 ? `, the one written last of ${finding.candidates} it holds open` : '';
      this.update(pane.paneId, { status: 'known', id, provenance: `held open by the pane's process ${pid}${of}`, file, at: this.now() });
    } else if (finding.problem && pane.record.status !== 'unknown') {
      this.update(pane.paneId, { status: 'unknown', id: null, provenance: 'open files of the pane', reason: finding.problem, at: this.now() });
    }
  }

  private update(paneId: PaneId, record: ConversationRecord): void {
    const pane = this.followed.get(paneId);
    if (!pane) return;
    const { at: _before, ...before } = pane.record;
    const { at: _after, ...after } = record;
    pane.record = record;
    if (JSON.stringify(before) !== JSON.stringify(after)) this.changed.fire(paneId);
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}

/** The report hook's arguments: its settings with the report command filled in, as JSON. */
function reportArgs(report: ConversationReport, command: string[]): string[] {
  const commandLine = command.map(shellWord).join(' ');
  const settings = JSON.parse(JSON.stringify(report.settings), (_key, value: unknown) => (typeof value === 'string' ? value.split('{command}').join(commandLine) : value)) as unknown;
  return fillArgs(report.args, '{settings}', JSON.stringify(settings));
}
