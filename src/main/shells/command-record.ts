/**
 * A command as the shell tools report it (run_command, wait_for_command,
 * command_history, the notices): built from its ledger lines, with its output
 * read back from the file beside the ledger.
 */
import { join } from 'node:path';
import type { LedgerEnd, LedgerEntry, LedgerStart } from './shell-ledger.js';
import { readCappedOutput, type OutputCap } from './command-output.js';
import type { PaneId } from '../../shared/pane-types.js';

/** Who typed a command: the human at the keyboard, or an agent through run_command. */
export type Writer = { kind: 'human' } | { kind: 'agent'; paneId: PaneId; name: string };

export function writerFields(writer: Writer): { writer: string; writer_id?: string } {
  return writer.kind === 'human' ? { writer: 'human' } : { writer: `agent:${writer.name}`, writer_id: writer.paneId };
}

/** What the shell printed after echoing the command line (its complaint, for a line it could not parse). */
export function afterCommandEcho(echo: string, command: string): string {
  const lines = echo.split('\n');
  return lines.slice(Math.min(lines.length, command.split('\n').length)).join('\n').trim();
}

/**
 * done: it ended (exit_code, or null when its status was never seen); running;
 * lost: it started and patterm ended before it did, so its end was never seen;
 * not_run: the shell did not run it (it could not parse it, or it was empty).
 */
export type CommandStatus = 'running' | 'done' | 'lost' | 'not_run';

export interface CommandRecord {
  seq: number | null;
  command: string | null;
  /** "human", or "agent:<name>" for an agent's run_command. */
  writer: string;
  /** The agent's child_id, when an agent ran it. */
  writer_id?: string;
  status: CommandStatus;
  integration: 'full' | 'fallback';
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  output: string;
  /** Bytes of output in all (the file's size). */
  output_bytes: number;
  /** Bytes of output that `output` leaves out (its middle); output_file holds them all. */
  truncated_bytes: number;
  output_file: string | null;
  /** The shell's working directory after the command (before it, while it runs). */
  cwd: string | null;
  /** The call returned before the command ended; it goes on running. */
  timed_out: boolean;
  /** The shell itself exited while the command ran; exit_code is the shell's. */
  shell_exited?: boolean;
  /** It has not started: the shell shows a continuation prompt, asking for the rest of it (an unclosed quote, say). */
  continuation?: boolean;
}

export interface RecordContext {
  /** The ledger's directory: output files are named relative to it. */
  dir: string;
  /** The command a live shell is running now, if any: its start without an end is not lost. */
  runningSeq: number | null;
  cap: OutputCap;
}

/** Every command in the ledger, oldest first. */
export async function recordsFromLedger(entries: readonly LedgerEntry[], context: RecordContext): Promise<CommandRecord[]> {
  const starts = new Map<number, LedgerStart>();
  const ends = new Map<number, LedgerEnd>();
  for (const entry of entries) {
    if (entry.type === 'start') starts.set(entry.seq, entry);
    else if (entry.type === 'end') ends.set(entry.seq, entry);
  }
  const seqs = [...starts.keys()].sort((a, b) => a - b);
  return Promise.all(seqs.map((seq) => buildRecord(starts.get(seq)!, ends.get(seq), context)));
}

export async function buildRecord(start: LedgerStart, end: LedgerEnd | undefined, context: RecordContext): Promise<CommandRecord> {
  const outputFile = start.output_file === null ? null : join(context.dir, start.output_file);
  const notRun = end?.ran === false;
  const output = notRun ? { text: end?.output ?? '', truncatedBytes: 0, bytes: 0 } : await readCappedOutput(outputFile, context.cap);
  const status: CommandStatus = end ? (notRun ? 'not_run' : 'done') : start.seq === context.runningSeq ? 'running' : 'lost';
  return {
    seq: start.seq,
    command: end?.command ?? start.command,
    writer: start.writer,
    ...(start.writer_id !== undefined ? { writer_id: start.writer_id } : {}),
    status,
    integration: start.integration,
    started_at: start.at,
    finished_at: end?.at ?? null,
    duration_ms: end ? end.duration_ms : null,
    exit_code: end ? end.exit_code : null,
    output: output.text,
    output_bytes: notRun ? 0 : Math.max(output.bytes, end?.output_bytes ?? 0),
    truncated_bytes: output.truncatedBytes,
    output_file: notRun || output.bytes === 0 ? null : outputFile,
    cwd: end?.cwd ?? start.cwd,
    timed_out: false,
    ...(end?.shell_exited ? { shell_exited: true } : {}),
  };
}

/** "`pnpm test` exited 0 in 4.2 s" and the like, for headlines and notices. */
export function describeOutcome(record: CommandRecord): string {
  const command = record.command === null ? 'a command' : `\`${oneLine(record.command)}\``;
  const took = record.duration_ms === null ? '' : ` in ${formatDuration(record.duration_ms)}`;
  switch (record.status) {
    case 'running':
      return `${command} is still running${record.timed_out ? ' (the wait timed out)' : ''}`;
    case 'lost':
      return `${command} was lost: patterm ended while it ran, and its end was never seen`;
    case 'not_run':
      return `${command} did not run${record.exit_code === null ? '' : ` (status ${record.exit_code})`}`;
    case 'done':
      if (record.shell_exited) return `${command} ended with the shell, which exited with ${record.exit_code ?? 'no status'}${took}`;
      return record.exit_code === null ? `${command} ended with an unknown status${took}` : `${command} exited ${record.exit_code}${took}`;
  }
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A command on one line, for headlines: its first line, shortened. */
export function oneLine(command: string, max = 120): string {
  const lines = command.split('\n');
  const first = lines[0].length > max ? `${lines[0].slice(0, max)}…` : lines[0];
  return lines.length > 1 ? `${first} … (${lines.length} lines)` : first;
}
