/**
 * Conversations from an agent CLI's own listing (opencode `session list
 * --format json`), and which pane each belongs to. A listing says where and
 * when a conversation was made, not by which process: a conversation is given
 * to a pane only when exactly one pane in that directory was spawned before it
 * and was active (patterm typed into it, or it worked) when it was made. Two
 * panes active at once in one directory get no id, with the reason: "the
 * newest conversation in this directory" is never taken on trust.
 */
import { execFile } from 'node:child_process';
import { readField } from '../../shared/conversation-schema.js';
import { sameDir } from './open-conversation-files.js';

/** A listing of a few hundred conversations is far below this. */
const MAX_LISTING_BYTES = 32 * 1024 * 1024;
/** opencode takes seconds to start on a loaded machine. */
const LISTING_TIMEOUT_MS = 60_000;
/**
 * How far a conversation's stamp may lie before a span of activity: a turn seen on screen is
 * seen up to a judging interval after it began. A conversation is made as its first turn
 * starts, so after a span ends there is only a little slack, for clocks read a moment apart.
 */
export const ACTIVITY_LEAD_MS = 1500;
export const ACTIVITY_TAIL_MS = 500;

export interface ListedConversation {
  id: string;
  directory: string;
  created: number;
}

export interface ListingFields {
  argv: string[];
  id_field: string;
  directory_field: string;
  created_field: string;
}

/** Runs the listing in `cwd` and reads its entries; rejects with what went wrong, naming the command. */
export function runListing(fields: ListingFields, cwd: string, env: NodeJS.ProcessEnv): Promise<ListedConversation[]> {
  const [program, ...args] = fields.argv;
  const command = fields.argv.join(' ');
  return new Promise((resolve, reject) => {
    execFile(program, args, { cwd, env, timeout: LISTING_TIMEOUT_MS, maxBuffer: MAX_LISTING_BYTES, encoding: 'utf8' }, (error, stdout) => {
      if (error) return reject(new Error(`\`${command}\` failed: ${error.message.split('\n')[0]}`));
      try {
        resolve(parseListing(fields, stdout));
      } catch (problem) {
        reject(new Error(`\`${command}\`: ${(problem as Error).message}`));
      }
    });
  });
}

export function parseListing(fields: Omit<ListingFields, 'argv'>, text: string): ListedConversation[] {
  const trimmed = text.trim();
  // An empty listing may print nothing at all.
  if (trimmed === '') return [];
  const parsed = JSON.parse(trimmed) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`expected a JSON array of conversations, received ${typeof parsed}`);
  return parsed.flatMap((entry) => {
    const id = readField(entry, fields.id_field);
    const directory = readField(entry, fields.directory_field);
    const created = toMillis(readField(entry, fields.created_field));
    return typeof id === 'string' && typeof directory === 'string' && created !== null ? [{ id, directory, created }] : [];
  });
}

function toMillis(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

export interface ListedPane {
  paneId: string;
  cwd: string;
  spawnedAt: number;
  /** When it ended, if it has. */
  exitedAt: number | null;
  /** When patterm typed into it or saw it work: [start, end] spans. */
  activity: readonly (readonly [number, number])[];
  /** Its conversation, when known, and when that one was made. */
  current: { id: string; created: number | null } | null;
}

export type Attribution = { paneId: string; conversation: ListedConversation } | { ambiguous: ListedConversation; panes: string[] };

/**
 * Which pane each new conversation belongs to, oldest first. `claimed`: ids
 * already taken (by any pane, or resumed), never handed out again.
 */
export function attributeConversations(listing: readonly ListedConversation[], panes: readonly ListedPane[], claimed: ReadonlySet<string>): Attribution[] {
  const results: Attribution[] = [];
  const earliest = Math.min(...panes.map((pane) => pane.spawnedAt));
  const fresh = listing.filter((entry) => !claimed.has(entry.id) && entry.created >= earliest - ACTIVITY_LEAD_MS).sort((a, b) => a.created - b.created);
  for (const entry of fresh) {
    const candidates = panes.filter(
      (pane) =>
        sameDir(pane.cwd, entry.directory) &&
        pane.spawnedAt - ACTIVITY_TAIL_MS <= entry.created &&
        (pane.exitedAt === null || pane.exitedAt >= entry.created) &&
        pane.activity.some(([start, end]) => start - ACTIVITY_LEAD_MS <= entry.created && entry.created <= end + ACTIVITY_TAIL_MS),
    );
    // Newer than the one it has (a /new), or its first: an older one never replaces it.
    const couldBeCurrent = (pane: ListedPane) => pane.current === null || pane.current.created === null || pane.current.created <= entry.created;
    if (candidates.length === 1) {
      if (couldBeCurrent(candidates[0])) results.push({ paneId: candidates[0].paneId, conversation: entry });
    } else if (candidates.length > 1) {
      const panes = candidates.filter(couldBeCurrent).map((pane) => pane.paneId);
      if (panes.length > 0) results.push({ ambiguous: entry, panes });
    }
  }
  return results;
}
