/**
 * Where layout records live and how they are found again:
 * `<project state dir>/resume/layout-<instance>.json`, one per patterm
 * instance, so two patterms in one project never write over each other's.
 * Each is replaced atomically (write a temp file, then rename), so a crash or
 * a SIGKILL mid-write leaves the previous record whole. A record that does not
 * parse is moved into `bad/`, one that was resumed into `resumed/`: kept
 * aside, never written over, and not offered again.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../node/atomic-write.js';
import { logIgnored } from '../../node/patterm-log.js';
import { readStat } from '../../node/process-reaper.js';
import { projectStateDir } from '../project/project-key.js';
import { parseLayoutRecord, recordPanes, serializeLayoutRecord, type LayoutRecord } from './layout-record.js';

const RECORD_FILE = /^layout-[A-Za-z0-9_-]+\.json$/;
/** Records kept in `resumed/`: enough to go back a few runs, without growing for ever. */
const KEPT_RESUMED = 10;

export function resumeDir(projectDir: string, stateHome?: string): string {
  return join(projectStateDir(projectDir, stateHome), 'resume');
}

export function recordPath(dir: string, instanceId: string): string {
  return join(dir, `layout-${instanceId}.json`);
}

/** The record holds the tokens' neighbours (argv, env a caller gave): the directory is the user's alone. */
export async function writeRecord(path: string, record: LayoutRecord): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, serializeLayoutRecord(record));
}

export async function removeRecord(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

export interface FoundRecord {
  path: string;
  record: LayoutRecord;
  /** The instance that wrote it is still running (another patterm in this project). */
  running: boolean;
  panes: number;
}

export interface BadRecord {
  path: string;
  problem: string;
  mtimeMs: number;
}

export interface RecordScan {
  /** Newest first (by the time each was saved). */
  good: FoundRecord[];
  bad: BadRecord[];
}

/** Every record in `dir`, parsed; a missing directory holds none. */
export function scanRecords(dir: string): RecordScan {
  const scan: RecordScan = { good: [], bad: [] };
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => RECORD_FILE.test(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logIgnored(`listing layout records in ${dir}`, error);
    return scan;
  }
  for (const file of files) {
    const path = join(dir, file);
    let text: string;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
      text = readFileSync(path, 'utf8');
    } catch (error) {
      logIgnored(`reading layout record ${path}`, error);
      continue; // removed meanwhile by the instance that owns it
    }
    const parsed = parseLayoutRecord(text);
    if (!parsed.ok) scan.bad.push({ path, problem: parsed.problem, mtimeMs });
    else scan.good.push({ path, record: parsed.record, running: instanceRunning(parsed.record), panes: recordPanes(parsed.record).length });
  }
  scan.good.sort((a, b) => b.record.savedAt - a.record.savedAt);
  return scan;
}

/** The records `--resume` can offer: not still being written by a running instance, and with something in them. */
export function resumable(scan: RecordScan): FoundRecord[] {
  return scan.good.filter((found) => !found.running && found.panes > 0);
}

/** This process's start time, recorded so that a later pid reuse is not taken for it. */
export function ownStartTime(): number | null {
  return readStat(process.pid)?.startTime ?? null;
}

function instanceRunning(record: LayoutRecord): boolean {
  const { pid, pidStart } = record.instance;
  if (pid === process.pid) return true;
  const stat = readStat(pid);
  if (!stat || stat.state === 'Z') return false;
  return pidStart === null || stat.startTime === pidStart;
}

/** Moves a record into `<dir>/<aside>/`, under a name that no earlier one holds; returns where it went. */
export function setAside(path: string, aside: 'bad' | 'resumed'): string {
  const folder = join(path, '..', aside);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  // The time first, so the names sort oldest first.
  const target = join(folder, `${stamp}-${basename(path)}`);
  renameSync(path, target);
  if (aside === 'resumed') pruneResumed(folder);
  return target;
}

function pruneResumed(folder: string): void {
  try {
    const files = readdirSync(folder).sort();
    for (const file of files.slice(0, Math.max(0, files.length - KEPT_RESUMED))) {
      void unlink(join(folder, file)).catch((error) => logIgnored(`pruning resumed record ${file}`, error));
    }
  } catch (error) {
    logIgnored(`pruning ${folder}`, error);
  }
}
