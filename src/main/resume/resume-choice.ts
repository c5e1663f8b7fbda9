/**
 * Which layout record `patterm --resume` takes, decided before the TUI
 * starts so that a refusal is a plain error on the terminal: the newest record
 * of an instance that is no longer running, the others named. A record that
 * does not parse is moved aside (never written over) and, when it is the
 * newest, nothing starts. Plain `patterm` only mentions that a record exists.
 */
import type { BadRecord, FoundRecord } from './record-store.js';
import { resumable, resumeDir, scanRecords, setAside } from './record-store.js';

export interface SetAsideRecord {
  path: string;
  movedTo: string;
  problem: string;
}

export type ResumeChoice =
  | { ok: true; chosen: FoundRecord; others: FoundRecord[]; setAside: SetAsideRecord[] }
  | { ok: false; message: string };

export function chooseRecord(projectDir: string, stateHome?: string): ResumeChoice {
  const dir = resumeDir(projectDir, stateHome);
  const scan = scanRecords(dir);
  const moved = scan.bad.map((bad) => moveAside(bad));
  const offered = resumable(scan);
  const newestBad = scan.bad.reduce<BadRecord | null>((newest, bad) => (newest && newest.mtimeMs >= bad.mtimeMs ? newest : bad), null);
  if (newestBad && (offered.length === 0 || newestBad.mtimeMs > offered[0].record.savedAt)) {
    const record = moved.find((entry) => entry.path === newestBad.path)!;
    return {
      ok: false,
      message: `the newest layout record does not parse, so nothing was resumed: ${newestBad.path}: ${newestBad.problem}. It was kept aside as ${record.movedTo}; run patterm --resume again to take the next one, if any.`,
    };
  }
  if (offered.length === 0) {
    const running = scan.good.filter((found) => found.running);
    const still = running.length > 0 ? ` (a patterm still running here keeps its own: pid ${running.map((found) => found.record.instance.pid).join(', ')})` : '';
    return { ok: false, message: `nothing to resume in ${projectDir}: no earlier patterm left sessions in this project${still}` };
  }
  const [chosen, ...rest] = offered;
  const others = [...rest, ...scan.good.filter((found) => found.running)];
  return { ok: true, chosen, others, setAside: moved };
}

/** For plain `patterm`'s start-up notice: the record `--resume` would take, described, or null. */
export function describeResumable(projectDir: string, stateHome?: string): string | null {
  const offered = resumable(scanRecords(resumeDir(projectDir, stateHome)));
  if (offered.length === 0) return null;
  const [newest] = offered;
  const more = offered.length > 1 ? `; ${offered.length - 1} older record${offered.length > 2 ? 's' : ''} too` : '';
  return `patterm --resume brings back the last run's ${describeRecord(newest)}${more}`;
}

/** "2 sessions, 5 panes, saved 2026-12-07 14:02:11 by pid 4242" */
export function describeRecord(found: FoundRecord): string {
  const { record } = found;
  const sessions = record.sessions.length;
  const saved = new Date(record.savedAt).toLocaleString('sv-SE');
  const state = found.running ? `, still running as pid ${record.instance.pid}` : `, saved ${saved} by pid ${record.instance.pid}`;
  return `${sessions} session${sessions === 1 ? '' : 's'}, ${found.panes} pane${found.panes === 1 ? '' : 's'}${state}`;
}

function moveAside(bad: BadRecord): SetAsideRecord {
  return { path: bad.path, movedTo: setAside(bad.path, 'bad'), problem: bad.problem };
}
