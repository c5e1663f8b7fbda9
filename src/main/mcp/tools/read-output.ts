import * as v from 'valibot';
import { compilePattern, PatternError } from '../../../shared/pattern.js';
import type { CellFrame, GridSnapshot, PaneInfo } from '../../../shared/pane-types.js';
import { styledRows } from '../../../shared/styled-line.js';
import { defineTool, ok, ToolError, type ToolDefinition } from './tool-kit.js';
import type { ToolContext } from './tool-context.js';
import { metadataHeadline, paneMetadata } from '../services/pane-metadata.js';
import { completeLength } from '../services/stream-text.js';
import { frameLines } from '../../../shared/frame-text.js';
import { streamLinesOffThread } from '../../threads/cpu-pool.js';
import type { StreamLinesResult } from '../../../node/cpu-tasks.js';
import { patternMatcher } from '../../../node/pattern-matcher.js';
import type { PatternSpec } from '../../../node/pattern-tasks.js';
import { ChildIdSchema, counterSchema, DEFAULT_STREAM_BYTES, MAX_STREAM_BYTES, RegexSchema } from './schemas.js';

/** A read holds at most one line per byte, so no line count past this can mean anything. */
const MAX_STREAM_LINES = MAX_STREAM_BYTES;

/** The most history one grid read returns: more than any pane's scrollback at a usual width (DEFAULT_SCROLLBACK_BYTES). */
const MAX_HISTORY_LINES = 5000;

const GRID_ONLY = ['since_version', 'trim_chrome', 'history_lines', 'styled'] as const;
const STREAM_ONLY = ['since_offset', 'max_bytes', 'pattern', 'ignore_case', 'line_offset', 'line_limit'] as const;

const schema = v.strictObject({
  child_id: ChildIdSchema,
  mode: v.optional(v.pipe(v.picklist(['grid', 'stream']), v.description('"grid" (default): the visible screen. "stream": the output log since an offset.')), 'grid'),
  since_version: v.optional(counterSchema('since_version', 'grid only: a screen_version from an earlier read; only the rows that changed since then are returned.')),
  trim_chrome: v.optional(v.pipe(v.boolean(), v.description("grid only: drop the agent CLI's banner, input box and footer rows (per its preset). Default true.")), true),
  history_lines: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(MAX_HISTORY_LINES),
      v.description('grid only: also return up to this many rendered lines from above the screen (the scrollback, oldest first), e.g. the start of an answer that scrolled off. The alternate screen has none.'),
    ),
  ),
  styled: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'grid only: return each line with SGR escape sequences for its colours and attributes, as `tmux capture-pane -e` does (each line starts from the default style and ends with ESC[0m if it leaves it). Default false: plain text.',
      ),
    ),
  ),
  since_offset: v.optional(counterSchema('since_offset', 'stream only: byte offset to read from (new_offset of your previous read). Default 0, the oldest output kept.')),
  max_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_STREAM_BYTES), v.description(`stream only: read at most this many bytes. Default ${DEFAULT_STREAM_BYTES}.`))),
  pattern: v.optional(RegexSchema('stream only: keep only the lines matching this regex (like grep).')),
  ignore_case: v.optional(v.pipe(v.boolean(), v.description('stream only: match pattern case-insensitively.'))),
  line_offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_STREAM_LINES), v.description('stream only: skip this many lines (after filtering) before returning lines.'))),
  line_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_STREAM_LINES), v.description('stream only: return at most this many lines (after filtering and line_offset).'))),
});

type Args = v.InferOutput<typeof schema>;

export const readOutput: ToolDefinition<typeof schema> = defineTool({
  name: 'read_output',
  title: "Read a child's screen or output",
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    'Read what a child pane shows.',
    'mode "grid" returns the visible screen as plain text (colours stripped), for full-screen programs and agent CLIs. The grid result is the entire visible pane. You are responsible for locating the response to your last prompt within it.',
    'Pass since_version (the screen_version of an earlier read) to get only the rows that changed (every row, if that version is too old to compare with).',
    'mode "stream" returns the output log (ANSI stripped) from since_offset, for line-oriented programs such as servers, builds and tests, with new_offset to continue from next time; filter lines with pattern and page with line_offset / line_limit.',
    'Pass history_lines to also get the rendered lines that scrolled off the top of the screen (as history, oldest first).',
    'Pass styled: true to see colours and attributes (a selection, a highlighted menu item, a red error) as SGR sequences in each grid line.',
    "Both return new_offset (where the next stream read starts) and metadata: state (starting, busy, waiting_permission, waiting_input, idle, exited) with state_source (the evidence: a preset pattern, a terminal signal or quiet time) and state_since, dialog (the text of a permission dialog or question, when one is up), active_screen, rows, cols (the child's own size), cursor (x and y in cells; text_index, the cursor's index in its line's plain text, where a wide character counts once), idle_ms, idle, screen_version, status, exit_code.",
  ].join(' '),
  schema,
  async run(args, context) {
    const pane = context.services.children.resolveTarget(context.caller, args.child_id);
    rejectMisplaced(args);
    return args.mode === 'stream' ? readStream(pane, args, context) : readGrid(pane, args, context);
  },
});

function rejectMisplaced(args: Args): void {
  const misplaced = (args.mode === 'stream' ? GRID_ONLY.filter((key) => key !== 'trim_chrome') : STREAM_ONLY).filter((key) => args[key] !== undefined);
  if (misplaced.length > 0) {
    const other = args.mode === 'stream' ? 'grid' : 'stream';
    throw new ToolError(`${misplaced.join(', ')} only appl${misplaced.length === 1 ? 'ies' : 'y'} to mode "${other}"; this read is mode "${args.mode}"`);
  }
}

async function readGrid(pane: PaneInfo, args: Args, { services }: ToolContext) {
  // The stream head comes along as new_offset, so a caller can switch to stream reads from "now".
  const [grid, head] = await Promise.all([services.coordinator.grid(pane.id, args.since_version, args.styled), services.coordinator.streamHead(pane.id)]);
  const styledLines = grid.styledLines ?? null;
  if (args.since_version !== undefined && args.since_version > grid.screenVersion) {
    throw new ToolError(`since_version ${args.since_version} is newer than this screen's version (${grid.screenVersion}); pass the screen_version an earlier read returned`);
  }
  const meta = paneMetadata(services.coordinator.info(pane.id), grid, await services.states.judge(pane.id, grid));
  const trimmed = args.trim_chrome
    ? await services.launcher.chromeTrim(pane.id, grid.lines).catch((error: Error) => {
        throw new ToolError(error.message);
      })
    : { lines: grid.lines, trimmedRows: [] };
  const dropped = new Set(trimmed.trimmedRows);
  const shown = styledLines ? styledLines.filter((_, row) => !dropped.has(row)) : trimmed.lines;
  const content = withoutTrailingBlankLines(shown).join('\n');
  const structured: Record<string, unknown> = { mode: 'grid', content, new_offset: head, ...meta, trimmed_rows: trimmed.trimmedRows };
  let historyText = '';
  if (args.history_lines !== undefined) {
    const history = await historyAbove(services, pane.id, grid.rows, args.history_lines, args.styled ? styledRows : frameLines);
    Object.assign(structured, { history: history.join('\n'), history_lines: history.length });
    historyText = `[${history.length} line(s) above the screen]\n${history.join('\n')}${history.length > 0 ? '\n' : ''}[the screen]\n`;
  }
  if (args.since_version === undefined) {
    return ok(structured, `${metadataHeadline(meta)}${trimmedNote(trimmed.trimmedRows)}`, `${historyText}${content}`);
  }
  const changed = changedLines(grid, styledLines ?? grid.lines, dropped);
  Object.assign(structured, { since_version: args.since_version, changed_rows: changed.map((line) => line.row), changed_lines: changed });
  const body = changed.length === 0 ? '(no rows changed)' : changed.map((line) => `row ${line.row}: ${line.text}`).join('\n');
  return ok(structured, `${metadataHeadline(meta)} ${changed.length} row(s) changed since screen_version ${args.since_version}:`, `${historyText}${body}`);
}

/** Up to `count` rendered lines from just above the screen, oldest first: scrollback only, never the screen's own rows. */
async function historyAbove(services: ToolContext['services'], paneId: string, screenRows: number, count: number, linesOf: (frame: CellFrame) => string[]): Promise<string[]> {
  const slice = await services.coordinator.history(paneId, -(screenRows + count), count);
  const scrollback = Math.max(0, slice.total - screenRows);
  return linesOf(slice.frame).slice(0, Math.max(0, scrollback - (slice.first - slice.dropped)));
}

function changedLines(grid: GridSnapshot, lines: string[], dropped: Set<number>): { row: number; text: string }[] {
  return (grid.changedRows ?? []).filter((row) => !dropped.has(row)).map((row) => ({ row, text: lines[row] ?? '' }));
}

function trimmedNote(rows: number[]): string {
  return rows.length === 0 ? '' : ` (chrome rows ${rows.join(', ')} trimmed)`;
}

function withoutTrailingBlankLines(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === '') end--;
  return lines.slice(0, end);
}

async function readStream(pane: PaneInfo, args: Args, { services }: ToolContext) {
  const flags = args.ignore_case ? 'i' : '';
  const filter = compileFilter(args.pattern, flags);
  const since = args.since_offset ?? 0;
  const [chunk, grid] = await Promise.all([services.coordinator.stream(pane.id, since, args.max_bytes ?? DEFAULT_STREAM_BYTES), services.coordinator.grid(pane.id)]);
  const info = services.coordinator.info(pane.id);
  const running = info.process.status === 'running';
  // While the process runs, stop before a half-written character or escape; the rest comes next read.
  const usable = running ? completeLength(chunk.bytes) : chunk.bytes.length;
  const newOffset = chunk.startOffset + usable;
  const { lines: matching, totalLines } = await decodedLines(chunk.bytes.subarray(0, usable), filter ? { pattern: args.pattern!, flags } : null);
  const lineOffset = args.line_offset ?? 0;
  const page = matching.slice(lineOffset, args.line_limit === undefined ? undefined : lineOffset + args.line_limit);
  const content = page.join('\n');
  const meta = paneMetadata(info, grid, await services.states.judge(pane.id, grid));
  const structured = {
    mode: 'stream',
    content,
    new_offset: newOffset,
    start_offset: chunk.startOffset,
    dropped_bytes: chunk.droppedBytes,
    head_offset: chunk.headOffset,
    more_output: newOffset < chunk.headOffset,
    total_lines: matching.length,
    line_offset: lineOffset,
    returned_lines: page.length,
    ...meta,
  };
  const notes = [`new_offset ${newOffset}`];
  if (chunk.droppedBytes > 0) notes.push(`${chunk.droppedBytes} older bytes were no longer kept`);
  if (structured.more_output) notes.push(`${chunk.headOffset - newOffset} more bytes follow: read again with since_offset ${newOffset}`);
  if (filter) notes.push(`${matching.length} of ${totalLines} lines matched`);
  if (page.length === 0 && lineOffset > 0 && matching.length > 0) notes.push(`line_offset ${lineOffset} is past the last of ${matching.length} lines`);
  else if (page.length < matching.length) notes.push(`lines ${lineOffset}..${lineOffset + page.length - 1} of ${matching.length} shown`);
  return ok(structured, metadataHeadline(meta), `${content}${content ? '\n' : ''}[${notes.join('; ')}]`);
}

/**
 * Decoding and stripping a large read runs off the coordinator thread; a
 * caller's filter always does, on a pattern matcher thread, under its time
 * budget (pattern-matcher.ts).
 */
async function decodedLines(bytes: Uint8Array, filter: PatternSpec | null): Promise<StreamLinesResult> {
  if (filter === null) return streamLinesOffThread(bytes);
  const filtered = await patternMatcher().filterStream(filter, bytes);
  if (!filtered.ok) throw new ToolError(`pattern: ${filtered.problem}`);
  return filtered.value;
}

/** Compiled here only to report a bad pattern by name; the matching itself happens with the decoding. */
function compileFilter(pattern: string | undefined, flags: string): RegExp | null {
  if (pattern === undefined) return null;
  try {
    return compilePattern(pattern, flags);
  } catch (error) {
    if (error instanceof PatternError) throw new ToolError(`pattern: ${error.message}`);
    throw error;
  }
}
