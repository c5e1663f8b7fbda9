/**
 * Matching with a caller's regex under a time limit. MCP callers supply
 * patterns (wait_for_pattern, read_output's filter, spawn_process's ready and
 * error patterns), and one that backtracks catastrophically takes seconds to
 * hours on a line of 30 characters: "^(a+)+$", or "(.|\s)*z" with ignore_case.
 * V8's linear-time fallback refuses the "i" and "u" flags, so the match itself
 * is bounded (time-budget.ts). Without it, the thread the match runs on (the
 * coordinator: every pane and every MCP call; or a pane's worker) would hang.
 */
import { withinBudget } from './time-budget.js';

/**
 * A match stopped by the budget is retried once before it counts (the budget
 * is wall time; matching is idempotent): a pathological pattern costs twice
 * the budget, a preempted quick one is not mistaken for it.
 */
const ATTEMPTS = 2;

/** A bounded match: its value, or why it was stopped. */
export type BoundedMatch<T> = { ok: true; value: T } | { ok: false; problem: string };

export function matchWithinBudget<T>(budgetMs: number, job: () => T): BoundedMatch<T> {
  const run = withinBudget(budgetMs, job, ATTEMPTS);
  if (run.ok) return run;
  return {
    ok: false,
    problem: `matching took longer than ${budgetMs} ms and was stopped: the pattern backtracks too much (nested repetition such as "(a+)+", or overlapping alternatives such as "(.|\\s)*"); simplify it`,
  };
}

/**
 * `job` inline when its pattern cannot backtrack exponentially
 * (mayBacktrackExponentially in pattern.ts), else within the budget: a timed
 * run starts and joins a watchdog thread, which under load adds milliseconds
 * to every match, so plain patterns do not pay for it.
 */
export function boundedIf<T>(risky: boolean, budgetMs: number, job: () => T): BoundedMatch<T> {
  return risky ? matchWithinBudget(budgetMs, job) : { ok: true, value: job() };
}
