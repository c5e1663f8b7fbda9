/**
 * A shell pane's ledger: `shells/<name>/ledger.jsonl` in the project's state
 * directory, one JSON line when a command starts and one when it ends, each
 * command's output in `output/` beside it. Append-only: a line is written
 * whole in one append and never rewritten, so patterm killed at any moment
 * leaves every earlier line intact (a torn last line is skipped when read).
 * A start with no end that no live shell is running reads back as lost.
 *
 * The ledger belongs to the name, not to one pane: a new shell pane of the
 * same name (a second run, or resume) continues its numbering, and the old
 * records stay.
 */
import * as v from 'valibot';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectStateDir } from '../project/project-key.js';
import { logIgnored } from '../../node/patterm-log.js';

const Integration = v.picklist(['full', 'fallback']);
const NullableInt = v.nullable(v.pipe(v.number(), v.integer()));

const OpenLine = v.object({
  type: v.literal('open'),
  at: v.string(),
  pane: v.string(),
  shell: v.string(),
  cwd: v.string(),
  integration: v.boolean(),
});

const StartLine = v.object({
  type: v.literal('start'),
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  at: v.string(),
  pane: v.string(),
  command: v.nullable(v.string()),
  writer: v.string(),
  writer_id: v.optional(v.string()),
  cwd: v.nullable(v.string()),
  integration: Integration,
  output_file: v.nullable(v.string()),
});

const EndLine = v.object({
  type: v.literal('end'),
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  at: v.string(),
  exit_code: NullableInt,
  duration_ms: v.number(),
  cwd: v.nullable(v.string()),
  output_bytes: v.number(),
  /** The command as the shell named it at its end, when that says more than its start did. */
  command: v.optional(v.string()),
  /** The shell could not run it (it did not parse); `output` holds what the shell said. */
  ran: v.optional(v.boolean()),
  /** What the shell printed instead of running it, when it did not run. */
  output: v.optional(v.string()),
  /** The shell itself exited while it ran; exit_code is the shell's. */
  shell_exited: v.optional(v.boolean()),
});

const ExitLine = v.object({
  type: v.literal('exit'),
  at: v.string(),
  pane: v.string(),
  exit_code: NullableInt,
});

const LedgerLine = v.variant('type', [OpenLine, StartLine, EndLine, ExitLine]);

export type LedgerOpen = v.InferOutput<typeof OpenLine>;
export type LedgerStart = v.InferOutput<typeof StartLine>;
export type LedgerEnd = v.InferOutput<typeof EndLine>;
export type LedgerExit = v.InferOutput<typeof ExitLine>;
export type LedgerEntry = v.InferOutput<typeof LedgerLine>;

/** Where the ledgers of a project's shells live. */
export function shellsDir(projectDir: string, stateHome?: string): string {
  return join(projectStateDir(projectDir, stateHome), 'shells');
}

export class ShellLedger {
  readonly file: string;
  readonly outputDir: string;
  private appending: Promise<void> = Promise.resolve();

  private constructor(
    readonly name: string,
    readonly dir: string,
    /** The next command's number. */
    public nextSeq: number,
    /** Where the shell last was, by the ledger (its last command's end, or its start). */
    public lastCwd: string | null,
    /** The shell program the ledger's last pane ran. */
    readonly lastShell: string | null,
  ) {
    this.file = join(dir, 'ledger.jsonl');
    this.outputDir = join(dir, 'output');
  }

  /** Opens (creating it if need be) the ledger of the shell named `name` in `shellsRoot`. */
  static async open(shellsRoot: string, name: string): Promise<ShellLedger> {
    const dir = join(shellsRoot, name);
    await mkdir(join(dir, 'output'), { recursive: true, mode: 0o700 });
    const entries = await readLedger(join(dir, 'ledger.jsonl'));
    let lastSeq = 0;
    let lastCwd: string | null = null;
    let lastShell: string | null = null;
    for (const entry of entries) {
      if (entry.type === 'start' || entry.type === 'end') lastSeq = Math.max(lastSeq, entry.seq);
      if (entry.type === 'open') {
        lastShell = entry.shell;
        lastCwd = entry.cwd;
      }
      if ((entry.type === 'start' || entry.type === 'end') && entry.cwd !== null) lastCwd = entry.cwd;
    }
    return new ShellLedger(name, dir, lastSeq + 1, lastCwd, lastShell);
  }

  /** Takes the next command number. */
  takeSeq(): number {
    return this.nextSeq++;
  }

  /** Appends one line; lines go in the order asked for, each in one write. */
  append(entry: LedgerEntry): Promise<void> {
    if ((entry.type === 'start' || entry.type === 'end') && entry.cwd !== null) this.lastCwd = entry.cwd;
    const line = JSON.stringify(entry) + '\n';
    const written = this.appending.then(() => appendFile(this.file, line, { mode: 0o600 }));
    this.appending = written.catch((error: unknown) => logIgnored(`appending to the shell ledger ${this.file}`, error));
    return written;
  }

  /** Settles once every append asked for so far is on disk (or failed). */
  async flushed(): Promise<void> {
    await this.appending;
  }

  /** Every valid line, in order. */
  async entries(): Promise<LedgerEntry[]> {
    await this.flushed();
    return readLedger(this.file);
  }
}

/** The ledger's lines; a line that does not parse (torn by a kill mid-append) is skipped and logged. */
export async function readLedger(file: string): Promise<LedgerEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const parsed = v.safeParse(LedgerLine, JSON.parse(line));
      if (parsed.success) entries.push(parsed.output);
      else logIgnored(`a line of ${file} that is not a ledger entry: ${line.slice(0, 200)}`, new Error(parsed.issues.map((issue) => issue.message).join('; ')));
    } catch (error) {
      logIgnored(`a line of ${file} that is not JSON (torn?): ${line.slice(0, 200)}`, error);
    }
  }
  return entries;
}
