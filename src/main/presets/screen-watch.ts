/**
 * Waiting on a live pane's screen without polling: a predicate is re-checked on
 * every screen change the coordinator reports, until it holds, the pane exits,
 * or the deadline passes.
 */
import type { GridSnapshot, PaneId } from '../../shared/pane-types.js';
import type { Coordinator } from '../coordinator.js';
import { logIgnored } from '../../node/patterm-log.js';

export type WatchOutcome<T> =
  | { kind: 'held'; value: T; grid: GridSnapshot }
  | { kind: 'timeout'; grid: GridSnapshot | null }
  | { kind: 'exited'; grid: GridSnapshot | null }
  /** The check itself failed (a preset's pattern overran its budget): `problem` says why. */
  | { kind: 'failed'; problem: string; grid: GridSnapshot | null };

/** Even with no screen change, re-check this often: idle-based conditions change with time alone. */
const RECHECK_INTERVAL_MS = 100;

export function watchScreen<T>(
  coordinator: Coordinator,
  paneId: PaneId,
  check: (grid: GridSnapshot) => T | null | undefined | Promise<T | null | undefined>,
  timeoutMs: number,
): Promise<WatchOutcome<T>> {
  return new Promise((resolve) => {
    let done = false;
    let running = false;
    let again = false;
    let last: GridSnapshot | null = null;
    const finish = (outcome: WatchOutcome<T>) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(ticker);
      subscription.dispose();
      resolve(outcome);
    };
    const evaluate = async () => {
      if (done) return;
      if (running) {
        again = true; // coalesce bursts of screen changes into one more check
        return;
      }
      running = true;
      try {
        do {
          again = false;
          if (!coordinator.has(paneId)) return finish({ kind: 'exited', grid: last });
          last = await coordinator.grid(paneId);
          let value: T | null | undefined;
          try {
            value = await check(last);
          } catch (error) {
            return finish({ kind: 'failed', problem: (error as Error).message, grid: last });
          }
          if (value !== null && value !== undefined) return finish({ kind: 'held', value, grid: last });
          if (coordinator.info(paneId).process.status !== 'running') return finish({ kind: 'exited', grid: last });
        } while (again && !done);
      } catch (error) {
        logIgnored(`watching ${paneId}'s screen; treated as exited`, error, coordinator.has(paneId) ? 'warn' : 'debug');
        finish({ kind: 'exited', grid: last });
      } finally {
        running = false;
      }
    };
    const subscription = coordinator.onScreenDirty(paneId, () => void evaluate());
    const ticker = setInterval(() => void evaluate(), RECHECK_INTERVAL_MS);
    const deadline = setTimeout(() => finish({ kind: 'timeout', grid: last }), Math.max(0, timeoutMs));
    void evaluate();
  });
}

/** The last few non-blank rows, for error messages that show what the screen said. */
export function screenTail(grid: GridSnapshot | null, rows = 6): string {
  if (!grid) return '(no screen yet)';
  const tail = grid.lines.filter((line) => line.trim() !== '').slice(-rows);
  return tail.length === 0 ? '(blank screen)' : tail.join(' ⏎ ');
}
