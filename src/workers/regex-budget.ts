/**
 * Runs matching with a caller's regex under a time limit. MCP callers supply
 * patterns (wait_for_pattern, read_output's filter, spawn_process's ready and
 * error patterns), and one that backtracks catastrophically takes seconds to
 * hours on a line of 30 characters: "^(a+)+$", or "(.|\s)*z" with ignore_case.
 * Static checks cannot catch every such pattern, and V8's linear-time fallback
 * refuses the "i" and "u" flags, so the match itself is bounded: V8 can stop a
 * regex mid-match, and node:vm's timeout does that. Without it, the thread the
 * match runs on (the coordinator: every pane and every MCP call; or a pane's
 * worker) would hang.
 */
import { createContext, Script } from 'node:vm';

/** One context per thread, reused: creating one costs ~0.3 ms, a timed run in it ~0.06 ms. */
let context: { job?: () => unknown } | null = null;
const RUN_JOB = new Script('job()');

/** Node's code for a vm run stopped by its timeout. */
const TIMEOUT_CODE = 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** The outcome of a bounded match: its value, or the reason it was stopped. */
export type Bounded<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * The budget is wall time, and a loaded machine can keep this thread off the
 * CPU past it while a quick match runs: a stopped match is retried once, and
 * only a second stop counts. A pathological pattern costs twice the budget.
 */
const ATTEMPTS = 2;

export function withinBudget<T>(budgetMs: number, job: () => T): Bounded<T> {
  context ??= createContext(Object.create(null)) as { job?: () => unknown };
  context.job = job;
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        return { ok: true, value: RUN_JOB.runInContext(context, { timeout: budgetMs }) as T };
      } catch (error) {
        if ((error as { code?: string }).code !== TIMEOUT_CODE) throw error;
      }
    }
    return {
      ok: false,
      problem: `matching took longer than ${budgetMs} ms and was stopped: the pattern backtracks too much (nested repetition such as "(a+)+", or overlapping alternatives such as "(.|\\s)*"); simplify it`,
    };
  } finally {
    context.job = undefined;
  }
}

/**
 * `job` inline when its pattern cannot backtrack exponentially
 * (mayBacktrackExponentially in pattern.ts), else within the budget: a timed
 * run starts and joins a watchdog thread, which under load adds milliseconds
 * to every match, so plain patterns do not pay for it.
 */
export function boundedIf<T>(risky: boolean, budgetMs: number, job: () => T): Bounded<T> {
  return risky ? withinBudget(budgetMs, job) : { ok: true, value: job() };
}
