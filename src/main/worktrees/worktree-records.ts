/**
 * The record of each worktree patterm made, one file per worktree under the
 * project's state directory (`<state>/worktrees/<name>.json`), each replaced
 * atomically. It outlives patterm: start-up lists what earlier runs left, and
 * a resumed pane finds its worktree here (readWorktreeRecord).
 */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../../node/atomic-write.js';
import { logIgnored } from '../../node/patterm-log.js';
import { projectStateDir } from '../project/project-key.js';

const RecordSchema = v.object({
  version: v.literal(1),
  name: v.string(),
  /** The worktree's root directory. */
  path: v.string(),
  branch: v.string(),
  /** The full ref the worktree was based on (refs/heads/main), or null for a commit or a detached HEAD. */
  baseRef: v.nullable(v.string()),
  /** What the caller asked for ("main", "HEAD~2"), or "HEAD". */
  baseGiven: v.string(),
  baseCommit: v.string(),
  /** The project checkout's top directory. */
  checkout: v.string(),
  createdAt: v.string(),
  port: v.number(),
  /** creating: git is making it; ready: the child may start; failed: `failure` says why (it is kept for inspection). */
  status: v.picklist(['creating', 'ready', 'failed']),
  failure: v.optional(v.string()),
  child: v.object({ name: v.string(), kind: v.string(), preset: v.nullable(v.string()), paneId: v.nullable(v.string()) }),
  /** The patterm run and session that made it: an orchestrator may act only on its own session's worktrees. */
  owner: v.object({ instanceId: v.string(), sessionId: v.nullable(v.string()) }),
});

export type WorktreeRecord = v.InferOutput<typeof RecordSchema>;

export function recordsDir(projectDir: string, stateHome?: string): string {
  return join(projectStateDir(projectDir, stateHome), 'worktrees');
}

function recordPath(projectDir: string, name: string, stateHome?: string): string {
  return join(recordsDir(projectDir, stateHome), `${name}.json`);
}

export async function writeWorktreeRecord(projectDir: string, record: WorktreeRecord, stateHome?: string): Promise<void> {
  await mkdir(recordsDir(projectDir, stateHome), { recursive: true });
  await writeFileAtomic(recordPath(projectDir, record.name, stateHome), JSON.stringify(record, null, 2) + '\n');
}

/** A record that cannot be read or does not fit the schema: listed so that it is not silently forgotten. */
export class BrokenRecordError extends Error {
  override readonly name = 'BrokenRecordError';
}

/** The record of worktree `name`, or null when patterm has none. Throws BrokenRecordError for an unreadable one. */
export async function readWorktreeRecord(projectDir: string, name: string, stateHome?: string): Promise<WorktreeRecord | null> {
  const path = recordPath(projectDir, name, stateHome);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BrokenRecordError(`cannot read the worktree record ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BrokenRecordError(`the worktree record ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = v.safeParse(RecordSchema, json);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(top level)'}: ${issue.message}`);
    throw new BrokenRecordError(`the worktree record ${path} does not fit its format: ${problems.join('; ')}`);
  }
  return parsed.output;
}

export interface RecordListing {
  records: WorktreeRecord[];
  /** One line per record file that could not be read. */
  problems: string[];
}

/** Every record of the project, oldest first. */
export async function listWorktreeRecords(projectDir: string, stateHome?: string): Promise<RecordListing> {
  let files: string[];
  try {
    files = await readdir(recordsDir(projectDir, stateHome));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], problems: [] };
    throw error;
  }
  const records: WorktreeRecord[] = [];
  const problems: string[] = [];
  for (const file of files.filter((entry) => entry.endsWith('.json') && !entry.startsWith('.'))) {
    try {
      const record = await readWorktreeRecord(projectDir, file.slice(0, -'.json'.length), stateHome);
      if (record) records.push(record);
    } catch (error) {
      logIgnored('listing worktree records', error);
      problems.push((error as Error).message);
    }
  }
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { records, problems };
}

export async function deleteWorktreeRecord(projectDir: string, name: string, stateHome?: string): Promise<void> {
  try {
    await unlink(recordPath(projectDir, name, stateHome));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
