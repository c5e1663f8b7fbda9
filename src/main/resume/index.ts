/**
 * The resume room, as app.ts uses it: recording the layout (and each agent's
 * conversation) while patterm runs, and `patterm --resume` bringing a recorded
 * run back. The seams other features use are here too (see docs/resume.md).
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { NoticeLevel } from '../../shared/renderer-protocol.js';
import type { PaneId, PaneInfo } from '../../shared/pane-types.js';
import { writeFileAtomic } from '../../node/atomic-write.js';
import { ignoreError, log } from '../../node/patterm-log.js';
import type { AgentLauncher } from '../contracts.js';
import type { Coordinator } from '../coordinator.js';
import type { PresetCatalog } from '../presets/preset-catalog.js';
import { PATTERM_BIN } from '../version.js';
import { ConversationTracker } from './conversation-tracker.js';
import { LayoutRecorder } from './layout-recorder.js';
import { recordPath, resumeDir, setAside } from './record-store.js';
import type { ResumeChoice } from './resume-choice.js';
import { planResume } from './resume-plan.js';
import { runResume, type ShellRestarter } from './resume-runner.js';
import { resumeStatusLine, resumeSummaryText, type ResumeAccount } from './resume-summary.js';

export { chooseRecord, describeResumable, type ResumeChoice } from './resume-choice.js';
export type { ShellRestarter } from './resume-runner.js';
export { ConversationTracker } from './conversation-tracker.js';
export { LayoutRecorder } from './layout-recorder.js';

export interface ResumeRecording {
  /** Hand to the agent launcher as its `conversations`. */
  tracker: ConversationTracker;
  recorder: LayoutRecorder;
}

/** Starts keeping this instance's layout record under the project's state dir. */
export function startRecording(coordinator: Coordinator, stateHome?: string): ResumeRecording {
  const tracker = new ConversationTracker({
    coordinator,
    reportCommand: (file) => [process.execPath, PATTERM_BIN, 'conversation-report', '--file', file],
  });
  const path = recordPath(resumeDir(coordinator.projectDir, stateHome), coordinator.instanceId);
  const recorder = new LayoutRecorder({ coordinator, path, conversations: tracker });
  return { tracker, recorder };
}

export interface ResumeOptions {
  choice: Extract<ResumeChoice, { ok: true }>;
  coordinator: Coordinator;
  launcher: AgentLauncher;
  catalog: PresetCatalog;
  adoptChild(pane: PaneInfo, spawnerId: PaneId, notifyOnExit: boolean): void;
  tellAgent(paneId: PaneId, text: string): void;
  /** The shell feature's: reopens a shell pane over its ledger. Without it shell panes are skipped, with the reason. */
  reopenShell?: ShellRestarter;
  notify(text: string, level: NoticeLevel): void;
  stateHome?: string;
}

/** Brings the chosen record's sessions back, then says what came back in the status line and a summary pane. */
export async function resumeLastRun(options: ResumeOptions): Promise<ResumeAccount> {
  const { choice, coordinator } = options;
  // From here this run's own record holds what comes back: the old one is not offered again.
  const movedTo = setAside(choice.chosen.path, 'resumed');
  log.info(`resuming ${choice.chosen.path} (kept as ${movedTo})`);
  const plans = await planResume(choice.chosen.record, { catalog: options.catalog, projectDir: coordinator.projectDir, shellsSupported: options.reopenShell !== undefined });
  const outcomes = await runResume(plans, { launcher: options.launcher, adoptChild: options.adoptChild, tellAgent: options.tellAgent, reopenShell: options.reopenShell });
  const account: ResumeAccount = { chosen: choice.chosen, outcomes, others: choice.others, setAside: choice.setAside };
  options.notify(resumeStatusLine(account), account.outcomes.every((session) => [session.root, ...session.children].every((pane) => 'info' in pane)) ? 'info' : 'warning');
  await showSummary(options, resumeSummaryText(account));
  return account;
}

/** The summary in a pane of its own (a session the record leaves out), removed from disk once shown. */
async function showSummary(options: ResumeOptions, text: string): Promise<void> {
  const file = join(resumeDir(options.coordinator.projectDir, options.stateHome), `summary-${options.coordinator.instanceId}.txt`);
  try {
    await writeFileAtomic(file, text);
    const pane = await options.launcher.spawnProcess({ argv: ['cat', file], name: 'resume summary', owner: 'user', launch: { unrecorded: true } });
    await options.coordinator.exitPromise(pane.id);
  } catch (error) {
    options.notify(`Could not show the resume summary: ${(error as Error).message}`, 'error');
  } finally {
    await unlink(file).catch(ignoreError(`removing the resume summary ${file}`));
  }
}
