/**
 * Runs synchronous work under a wall-time limit, and stops it mid-way when it
 * runs over: V8 can interrupt JavaScript, a regex match and a WASM call alike,
 * and node:vm's timeout does exactly that. For work whose cost we cannot bound
 * in advance and that must not hang its thread: ghostty-web's reflow on
 * resize (emulator-keeper.ts).
 */
import { createContext, Script } from 'node:vm';

/** One context per thread, reused: creating one costs several times a timed run in it. */
let context: { job?: () => unknown } | null = null;
const RUN_JOB = new Script('job()');

/** Node's code for a vm run stopped by its timeout. */
const TIMEOUT_CODE = 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** The outcome of a bounded run: its value, or that it was stopped. */
export type Bounded<T> = { ok: true; value: T } | { ok: false };

/**
 * Runs `job` for at most `budgetMs`, up to `attempts` times: the budget is wall
 * time, and a loaded machine can keep the thread off the CPU past it while
 * quick work runs, so idempotent work may retry. Work that leaves state
 * half-changed when stopped must take one attempt and discard that state.
 */
export function withinBudget<T>(budgetMs: number, job: () => T, attempts: number): Bounded<T> {
  context ??= createContext(Object.create(null)) as { job?: () => unknown };
  context.job = job;
  try {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return { ok: true, value: RUN_JOB.runInContext(context, { timeout: budgetMs }) as T };
      } catch (error) {
        if ((error as { code?: string }).code !== TIMEOUT_CODE) throw error;
      }
    }
    return { ok: false };
  } finally {
    context.job = undefined;
  }
}
