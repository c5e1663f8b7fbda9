/**
 * The layout record: one patterm instance's sessions and their panes, as
 * `patterm --resume` needs them to start everything again. Written as JSON
 * (record-store.ts) and checked with valibot on the way back in, so a record
 * that a crash, a disk error or a hand edit broke is reported by field, never
 * half-used. Fields it does not know are dropped, so a newer patterm's record
 * still reads.
 */
import * as v from 'valibot';
import { describeIssues } from '../../shared/preset-schema.js';

export const RECORD_FORMAT = 'patterm-layout';
export const RECORD_VERSION = 1;

/**
 * What patterm knows of an agent's conversation:
 * - `known`: the id, and the conversation exists (its file was seen, or its CLI listed it): a resume continues it;
 * - `none_yet`: the agent has had no conversation yet (no turn): a resume starts it afresh;
 * - `unknown`: it had one, but which could not be established (`reason` says why): a resume skips it;
 * - `untracked`: its preset does not say how to follow its conversations: a resume starts it afresh.
 */
export const ConversationRecordSchema = v.object({
  status: v.picklist(['known', 'none_yet', 'unknown', 'untracked']),
  id: v.nullable(v.string()),
  /** Where the id came from: "chosen by patterm (--session-id)", "SessionStart hook (source clear)", "held open by pid 42: …". */
  provenance: v.string(),
  reason: v.optional(v.string()),
  /** Where the CLI keeps it, when known: a resume checks it is still there. */
  file: v.optional(v.string()),
  /** When this was learnt (ms since the epoch). */
  at: v.number(),
});

const Size = v.object({ cols: v.number(), rows: v.number() });

export const PaneRecordSchema = v.object({
  /** The pane's id in the run that wrote the record (children name their spawner by it). */
  id: v.string(),
  name: v.string(),
  kind: v.picklist(['agent', 'process', 'shell']),
  /** Preset file id; null for a freeform argv. */
  preset: v.nullable(v.string()),
  argv: v.array(v.string()),
  shell: v.optional(v.boolean()),
  env: v.optional(v.record(v.string(), v.string())),
  workingDir: v.optional(v.string()),
  /** Where it ran (absolute). For a shell pane, its last directory. */
  cwd: v.string(),
  worktree: v.optional(v.object({ name: v.string(), path: v.string() })),
  ledger: v.optional(v.string()),
  /** Its session root's id, null for a root. */
  parent: v.nullable(v.string()),
  spawnedBy: v.optional(v.string()),
  notifyOnExit: v.optional(v.boolean()),
  owner: v.picklist(['user', 'orchestrator']),
  ownSize: v.optional(Size),
  tags: v.array(v.string()),
  /** Set when it had exited on its own before patterm stopped. */
  exited: v.optional(v.object({ code: v.nullable(v.number()), signal: v.nullable(v.string()) })),
  conversation: v.optional(ConversationRecordSchema),
});

export const SessionRecordSchema = v.object({
  name: v.string(),
  root: PaneRecordSchema,
  children: v.array(PaneRecordSchema),
});

export const LayoutRecordSchema = v.object({
  format: v.literal(RECORD_FORMAT),
  version: v.literal(RECORD_VERSION),
  instance: v.object({
    id: v.string(),
    pid: v.number(),
    /** The process's start time in clock ticks after boot (/proc/<pid>/stat), so a reused pid is not taken for it. */
    pidStart: v.nullable(v.number()),
    startedAt: v.number(),
  }),
  projectDir: v.string(),
  savedAt: v.number(),
  sessions: v.array(SessionRecordSchema),
});

export type ConversationRecord = v.InferOutput<typeof ConversationRecordSchema>;
export type PaneRecord = v.InferOutput<typeof PaneRecordSchema>;
export type SessionRecord = v.InferOutput<typeof SessionRecordSchema>;
export type LayoutRecord = v.InferOutput<typeof LayoutRecordSchema>;

export type RecordParse = { ok: true; record: LayoutRecord } | { ok: false; problem: string };

/** Parses a record file's text; the problem names the field and what was there. */
export function parseLayoutRecord(text: string): RecordParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON: ${(error as Error).message}` };
  }
  const result = v.safeParse(LayoutRecordSchema, json);
  if (result.success) return { ok: true, record: result.output };
  return { ok: false, problem: describeIssues(result.issues).slice(0, 5).join('; ') };
}

export function serializeLayoutRecord(record: LayoutRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** Every pane of the record, roots first, each session's children after its root. */
export function recordPanes(record: LayoutRecord): PaneRecord[] {
  return record.sessions.flatMap((session) => [session.root, ...session.children]);
}
