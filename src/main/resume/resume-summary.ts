/**
 * What a resume tells the user: one line for the status line, and the full
 * account for the summary pane: each session's panes, what came back and how,
 * what was skipped and why, and the records it did not take.
 */
import type { FoundRecord } from './record-store.js';
import { describeRecord, type SetAsideRecord } from './resume-choice.js';
import { isBack, type PaneOutcome, type SessionOutcome } from './resume-runner.js';

export interface ResumeAccount {
  chosen: FoundRecord;
  outcomes: SessionOutcome[];
  others: FoundRecord[];
  setAside: SetAsideRecord[];
}

function all(outcomes: SessionOutcome[]): PaneOutcome[] {
  return outcomes.flatMap((session) => [session.root, ...session.children]);
}

/** "Resumed 4 of 5 panes; 1 skipped (see the resume summary tab)" */
export function resumeStatusLine(account: ResumeAccount): string {
  const panes = all(account.outcomes);
  const back = panes.filter(isBack).length;
  const skipped = panes.length - back;
  const tail = skipped > 0 ? `; ${skipped} not back (see the resume summary tab)` : '';
  return `Resumed ${back} of ${panes.length} pane${panes.length === 1 ? '' : 's'} of the last run${tail}`;
}

export function resumeSummaryText(account: ResumeAccount): string {
  const lines = [`patterm --resume: the run with ${describeRecord(account.chosen)}`, ''];
  for (const session of account.outcomes) {
    lines.push(`Session ${session.root.pane.name}`);
    for (const [index, outcome] of [session.root, ...session.children].entries()) lines.push(`  ${index === 0 ? '' : '  '}${describe(outcome)}`);
    lines.push('');
  }
  const panes = all(account.outcomes);
  const back = panes.filter(isBack).length;
  lines.push(`${back} of ${panes.length} back, ${panes.length - back} not.`);
  if (account.others.length > 0) {
    lines.push('', 'Other layout records in this project (patterm --resume takes the newest that is not running):');
    for (const other of account.others) lines.push(`  ${describeRecord(other)} (${other.path})`);
  }
  if (account.setAside.length > 0) {
    lines.push('', 'Records that do not parse, kept aside:');
    for (const bad of account.setAside) lines.push(`  ${bad.movedTo}: ${bad.problem}`);
  }
  return `${lines.join('\n')}\n`;
}

function describe(outcome: PaneOutcome): string {
  const what = outcome.pane.kind === 'agent' ? `agent ${outcome.pane.preset}` : outcome.pane.kind === 'shell' ? 'shell' : outcome.pane.preset ? `process ${outcome.pane.preset}` : `process ${outcome.pane.argv.join(' ')}`;
  const mark = isBack(outcome) ? '✓' : '✗';
  const verdict = isBack(outcome) ? outcome.detail : `${outcome.kind === 'failed' ? 'failed to start' : 'skipped'}: ${outcome.detail}`;
  return `${mark} ${outcome.pane.name} (${what}): ${verdict}`;
}
