import * as v from 'valibot';
import { compilePattern, PatternError } from '../../../shared/pattern.js';
import { PROGRESS_INTERVAL_MS } from '../services/progress-keepalive.js';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { exitCodeOf } from '../../agents/exit-description.js';
import { ChildIdSchema, MAX_WAIT_SECONDS } from './schemas.js';
import { PATTERN_BUDGET_MS } from '../../../node/pattern-matcher.js';

/** Longest single wait: the limit every waiting tool shares (MAX_WAIT_SECONDS). */
export const MAX_TIMEOUT_SECONDS = MAX_WAIT_SECONDS;
const MAX_STABLE_MS = 600_000;

export const waitForPattern = defineTool({
  name: 'wait_for_pattern',
  title: "Wait for a child's screen",
  access: 'any',
  annotations: { readOnlyHint: true },
  description: [
    "Block until a child's visible screen (the grid, as read_output mode \"grid\" shows it) matches a regex, or until timeout_seconds pass. Reacts as soon as the screen changes; no polling needed on your side.",
    'Returns matched (true/false) and snippet: the matching line(s), or the last lines of the screen when it timed out.',
    'absent: true waits until the pattern is gone instead (e.g. a spinner or "esc to interrupt" disappears).',
    'stable_ms waits, after the condition holds, until the screen has not changed for that many milliseconds; with stable_ms alone (no pattern) it waits for the screen to settle.',
    'If the child exits, the wait ends at once with exited: true.',
    `A pattern that backtracks too much (such as "(a+)+" or ".*.*.*X") is stopped after ${PATTERN_BUDGET_MS / 1000} s and returned as an error.`,
    `While it waits, it sends MCP progress notifications every ${PROGRESS_INTERVAL_MS / 1000} s to a client that asked for them, so a client that times calls out does not cut a long wait off.`,
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    pattern: v.optional(v.pipe(v.string(), v.maxLength(4096), v.description('JavaScript regex, matched against the whole screen text (multiline: ^ and $ match at each row).'))),
    timeout_seconds: v.pipe(
      v.number(),
      v.minValue(0, (issue) => `timeout_seconds must be 0 or more, received ${issue.input}`),
      v.maxValue(MAX_TIMEOUT_SECONDS, (issue) => `timeout_seconds must be at most ${MAX_TIMEOUT_SECONDS}, received ${issue.input}; wait again if you need longer`),
      v.description('Give up after this many seconds (matched: false).'),
    ),
    absent: v.optional(v.pipe(v.boolean(), v.description('Wait until the pattern is NOT on the screen. Default false.')), false),
    stable_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_STABLE_MS), v.description('Also require the screen to stay unchanged this long.'))),
    ignore_case: v.optional(v.pipe(v.boolean(), v.description('Match case-insensitively. Default false.')), false),
  }),
  async run(args, { caller, services, signal, progress }) {
    const pane = services.children.resolveTarget(caller, args.child_id);
    if (args.pattern === undefined && args.stable_ms === undefined) throw new ToolError('give pattern, stable_ms, or both');
    if (args.pattern === undefined && args.absent) throw new ToolError('absent: true needs a pattern to wait for the absence of');
    const flags = args.ignore_case ? 'i' : '';
    try {
      compilePattern(args.pattern ?? '', flags);
    } catch (error) {
      if (error instanceof PatternError) throw new ToolError(`pattern: ${error.message}`);
      throw error;
    }
    const running = pane.process.status === 'running';
    const request = { pattern: args.pattern ?? '', flags, absent: args.absent, timeoutMs: running ? args.timeout_seconds * 1000 : 0, stableMs: running ? args.stable_ms : 0 };
    if (signal.aborted) throw new ToolError('the wait was cancelled');
    const cancelled = new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
    const waiting = Promise.race([services.coordinator.waitFor(pane.id, request, signal), cancelled]);
    const outcome = await progress.during(waiting, (elapsedMs) => `waiting for ${pane.name}'s screen: ${Math.round(elapsedMs / 1000)} s of ${args.timeout_seconds} s`, request.timeoutMs);
    if (outcome === null) throw new ToolError('the wait was cancelled');
    if (outcome.patternProblem !== undefined) throw new ToolError(`pattern: ${outcome.patternProblem}`);
    const process = services.coordinator.info(pane.id).process;
    const exited = !running || outcome.exited === true;
    const result = {
      child_id: pane.id,
      matched: outcome.matched,
      snippet: outcome.snippet,
      screen_version: outcome.screenVersion,
      elapsed_ms: outcome.elapsedMs,
      exited,
      status: process.status,
      exit_code: exitCodeOf(process),
    };
    const condition = args.pattern === undefined ? 'the screen settled' : args.absent ? 'the pattern is gone' : 'matched';
    const headline = outcome.matched ? condition : exited ? `not matched: ${pane.name} exited` : `not matched within ${args.timeout_seconds} s`;
    return ok(result, `${headline} (screen_version ${outcome.screenVersion}, ${outcome.elapsedMs} ms)`, outcome.snippet);
  },
});
