/**
 * What `patterm --resume` does with each pane of a layout record, decided
 * before anything starts: continue an agent's conversation, start it afresh
 * (it had none yet, or its preset cannot follow one), start a process again,
 * reopen a shell, or skip the pane with the reason (CLI missing, id unknown,
 * conversation file gone, worktree gone, …). A session whose root is skipped
 * is skipped whole: its children come back under their parent or not at all.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentPreset } from '../../shared/preset-schema.js';
import { log } from '../../node/patterm-log.js';
import { describeExit } from '../agents/exit-description.js';
import type { ResumedConversation } from '../contracts.js';
import type { PresetCatalog } from '../presets/preset-catalog.js';
import { assertProgramExists } from '../presets/program-lookup.js';
import type { LayoutRecord, PaneRecord } from './layout-record.js';
import { runListing, type ListedConversation } from './session-listing.js';

export type PaneDecision =
  | { action: 'resume'; pane: PaneRecord; conversation: ResumedConversation }
  | { action: 'fresh'; pane: PaneRecord; why: string }
  | { action: 'start'; pane: PaneRecord }
  | { action: 'reopen'; pane: PaneRecord }
  | { action: 'skip'; pane: PaneRecord; reason: string };

export interface SessionPlan {
  root: PaneDecision;
  children: PaneDecision[];
}

export interface PlanOptions {
  catalog: PresetCatalog;
  projectDir: string;
  /** Shell panes can be reopened (the shell feature registered its restarter). */
  shellsSupported: boolean;
  /** Runs a CLI's listing (tests replace it). */
  listing?: typeof runListing;
}

export async function planResume(record: LayoutRecord, options: PlanOptions): Promise<SessionPlan[]> {
  const listings = new Map<string, Promise<ListedConversation[] | Error>>();
  return Promise.all(
    record.sessions.map(async (session) => {
      const root = await decide(session.root, options, listings);
      if (root.action === 'skip') {
        const why = `its session's root ${session.root.name} did not come back`;
        return { root, children: session.children.map((pane): PaneDecision => ({ action: 'skip', pane, reason: why })) };
      }
      return { root, children: await Promise.all(session.children.map((pane) => decide(pane, options, listings))) };
    }),
  );
}

async function decide(pane: PaneRecord, options: PlanOptions, listings: Map<string, Promise<ListedConversation[] | Error>>): Promise<PaneDecision> {
  const skip = (reason: string): PaneDecision => ({ action: 'skip', pane, reason });
  if (pane.exited) return skip(`it had exited before patterm stopped (${describeExit({ pid: 0, status: 'exited', exitCode: pane.exited.code, signal: pane.exited.signal })})`);
  if (pane.worktree && !isDirectory(pane.worktree.path)) return skip(`worktree gone: ${pane.worktree.name} (${pane.worktree.path}) no longer exists`);
  if (!isDirectory(pane.cwd)) return skip(`directory gone: ${pane.cwd} no longer exists`);
  switch (pane.kind) {
    case 'shell':
      return options.shellsSupported ? { action: 'reopen', pane } : skip('this patterm cannot reopen shell panes');
    case 'process':
      return decideProcess(pane, options) ?? { action: 'start', pane };
    case 'agent':
      return decideAgent(pane, options, listings);
  }
}

function decideProcess(pane: PaneRecord, options: PlanOptions): PaneDecision | null {
  const preset = pane.preset !== null ? options.catalog.findProcess(pane.preset)?.preset : null;
  if (pane.preset !== null && !preset) return { action: 'skip', pane, reason: `process preset ${JSON.stringify(pane.preset)} is no longer there` };
  const program = pane.shell ? 'sh' : (preset?.argv[0] ?? pane.argv[0]);
  const missing = programMissing(program, pane.cwd, { ...preset?.env, ...pane.env }.PATH);
  return missing ? { action: 'skip', pane, reason: missing } : null;
}

async function decideAgent(pane: PaneRecord, options: PlanOptions, listings: Map<string, Promise<ListedConversation[] | Error>>): Promise<PaneDecision> {
  const skip = (reason: string): PaneDecision => ({ action: 'skip', pane, reason });
  const preset = pane.preset !== null ? options.catalog.findAgent(pane.preset)?.preset : undefined;
  if (!preset) return skip(`agent preset ${JSON.stringify(pane.preset)} is no longer there`);
  const missing = programMissing(preset.argv[0], pane.cwd, preset.env?.PATH);
  if (missing) return skip(`CLI missing: ${missing}`);
  const conversation = pane.conversation;
  if (!conversation || conversation.status === 'none_yet') return { action: 'fresh', pane, why: 'it had no conversation yet' };
  if (conversation.status === 'untracked') return { action: 'fresh', pane, why: conversation.reason ?? 'its preset does not say how to resume its CLI' };
  if (conversation.status === 'unknown' || conversation.id === null) return skip(`conversation id unknown: ${conversation.reason ?? conversation.provenance}`);
  if (!preset.conversation) return skip(`agent preset ${JSON.stringify(pane.preset)} no longer says how to resume its CLI (no "conversation" section)`);
  if (conversation.file && !existsSync(conversation.file)) return skip(`conversation file gone: ${conversation.file}`);
  const gone = await goneFromListing(preset, conversation.id, pane.cwd, options, listings);
  if (gone) return skip(gone);
  return { action: 'resume', pane, conversation: { id: conversation.id, ...(conversation.file ? { file: conversation.file } : {}) } };
}

/** For a CLI that lists its conversations: the reason to skip when the id is no longer listed. */
async function goneFromListing(preset: AgentPreset, id: string, cwd: string, options: PlanOptions, listings: Map<string, Promise<ListedConversation[] | Error>>): Promise<string | null> {
  const source = preset.conversation?.id;
  if (source?.kind !== 'listing') return null;
  const key = JSON.stringify([source.argv, cwd]);
  if (!listings.has(key)) {
    const env = { ...process.env, ...preset.env };
    listings.set(key, (options.listing ?? runListing)(source, cwd, env).catch((error: Error) => error));
  }
  const listed = await listings.get(key)!;
  if (listed instanceof Error) {
    // Cannot tell: the CLI itself will say so if the conversation is gone.
    log.warn(`could not check conversation ${id} before resuming it: ${listed.message}`);
    return null;
  }
  return listed.some((entry) => entry.id === id) ? null : `conversation gone: ${id} is no longer listed by \`${source.argv.join(' ')}\``;
}

function programMissing(program: string, cwd: string, path: string | undefined): string | null {
  try {
    assertProgramExists(program, resolve(cwd), path ?? process.env.PATH);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // missing or unreadable: gone, as far as a resume can tell
  }
}
