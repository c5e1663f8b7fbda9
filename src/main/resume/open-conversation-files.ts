/**
 * Finds the conversation file an agent CLI holds open (codex keeps its rollout
 * open while it writes to it): the files open in the pane's process tree
 * (/proc/<pid>/fd) whose path matches the preset's pattern. A CLI that started
 * a new conversation (codex `/new`) may still hold the old one open; the one
 * written last is the conversation it is in. The file's first line is then
 * checked against the preset's `confirm` fields, so a file that only looks
 * right is not taken.
 */
import { closeSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { readField } from '../../shared/conversation-schema.js';
import { logIgnored } from '../../node/patterm-log.js';
import { withDescendants, type ProcStat } from '../../node/process-reaper.js';

/** A first line longer than this (codex's carries the whole system prompt) is read this far for its fields. */
const FIRST_LINE_BYTES = 1024 * 1024;

export interface OpenFileMatch {
  id: string;
  file: string;
  pid: number;
}

export type OpenFileFinding = { found: OpenFileMatch; candidates: number } | { found: null; problem: string | null };

export interface OpenFileQuery {
  rootPid: number;
  pattern: RegExp;
  cwd: string;
  confirm?: { id_field?: string; cwd_field?: string };
  /** Live processes, read once per tick for every pane (liveProcessStats). */
  stats: ProcStat[];
}

/** The conversation file the pane's processes hold open; `problem` says why a matching file was not taken. */
export function findOpenConversation(query: OpenFileQuery): OpenFileFinding {
  const matches = new Map<string, OpenFileMatch>();
  for (const pid of withDescendants([query.rootPid], query.stats)) {
    for (const path of openFiles(pid)) {
      const id = query.pattern.exec(path)?.groups?.id;
      if (id && !matches.has(path)) matches.set(path, { id, file: path, pid });
    }
  }
  if (matches.size === 0) return { found: null, problem: null };
  const newestFirst = [...matches.values()].sort((a, b) => (modified(b.file) > modified(a.file) ? 1 : modified(b.file) < modified(a.file) ? -1 : 0));
  const problems: string[] = [];
  for (const match of newestFirst) {
    const problem = query.confirm ? confirmProblem(match, query.cwd, query.confirm) : null;
    if (problem === null) return { found: match, candidates: matches.size };
    // A file whose first line is still being written is neither taken nor held against it.
    if (problem !== PENDING) problems.push(problem);
  }
  if (problems.length === 0) return { found: null, problem: null };
  return { found: null, problem: problems.join('; ') };
}

function openFiles(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch (error) {
    logIgnored(`listing the open files of ${pid}`, error);
    return []; // gone, or not ours
  }
  return fds.flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return []; // closed between the listing and the read: every scan meets some
    }
  });
}

/** In nanoseconds: two writes within one millisecond still come in order. */
function modified(path: string): bigint {
  try {
    return statSync(path, { bigint: true }).mtimeNs;
  } catch {
    return 0n; // deleted while open: the least likely to be the live one
  }
}

/** confirmProblem's answer for a file whose first line is not all there yet. */
const PENDING = 'pending';

function confirmProblem(match: OpenFileMatch, cwd: string, confirm: { id_field?: string; cwd_field?: string }): string | null {
  const first = firstLine(match.file);
  if (first === null) return PENDING;
  let meta: unknown;
  try {
    meta = JSON.parse(first);
  } catch {
    return `${match.file}: its first line is not JSON`;
  }
  if (confirm.id_field !== undefined) {
    const id = readField(meta, confirm.id_field);
    if (id !== match.id) return `${match.file}: ${confirm.id_field} is ${JSON.stringify(id)}, not the id in its name (${match.id})`;
  }
  if (confirm.cwd_field !== undefined) {
    const dir = readField(meta, confirm.cwd_field);
    if (typeof dir !== 'string' || !sameDir(dir, cwd)) return `${match.file}: ${confirm.cwd_field} is ${JSON.stringify(dir)}, not the pane's directory ${cwd}`;
  }
  return null;
}

function firstLine(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    logIgnored(`reading the first line of ${path}`, error);
    return null;
  }
  try {
    const buffer = Buffer.alloc(FIRST_LINE_BYTES);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    const end = text.indexOf('\n');
    return end === -1 ? null : text.slice(0, end);
  } finally {
    closeSync(fd);
  }
}

/** Two spellings of one directory (a symlink, a trailing slash) are the same directory. */
export function sameDir(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false; // one of them is gone: not the same as one that is there
  }
}
