/**
 * How soon V8 optimises patterm's hot code. Each pane runs in its own
 * isolate, so every new pane warms the same output path up again from the
 * interpreter: with 20 agents spawned and redrawing, those first seconds
 * are a visible share of what they cost (bench `animating-agents`).
 * Tiering up sooner shortens them; the steady state does not change.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * V8's budget of bytecode executed before a function is considered for
 * optimisation, well under V8's default: small enough that a pane's
 * per-batch path is optimised within its first few redraws, large enough
 * that code run a few times at start-up is not.
 */
const INTERRUPT_BUDGET_BYTES = 8 * 1024;

let tuned = false;

/** At the first spawn, once per process: the flag is process-wide, and read as each function's budget is set. */
export function tuneJit(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET_BYTES}`);
}
