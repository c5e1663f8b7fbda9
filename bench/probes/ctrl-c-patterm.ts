/**
 * `yes` floods a bash pane; after a second of flood, Ctrl-C. The clock runs
 * from the keystroke until the grid's last line is the prompt again and stays
 * unchanged for QUIET_MS (the quiet time itself is not counted). Everything
 * already read from the PTY must still be parsed first: that backlog is what
 * this measures.
 */
import { Coordinator } from '../../src/main/coordinator.js';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PANE } from '../harness/fence.js';
import { sleep } from '../harness/timing.js';

export const PROMPT = 'BENCH-PROMPT> ';
export const BASH_ARGV = ['bash', '--norc', '--noprofile', '-i'];
export const BASH_ENV = { PS1: PROMPT, HISTFILE: '/dev/null' };
/** "Quiet": no screen change for this long after the prompt shows. */
export const QUIET_MS = 200;
/** How long `yes` runs before the Ctrl-C: long enough that every buffer on the way is full. */
export const FLOOD_MS = 1000;
/** The prompt alone on the last non-empty line (the pattern is matched against the whole screen). */
export const PROMPT_BACK = `^${PROMPT.trimEnd()} ?$(?![\\s\\S]*\\S)`;

export default async function ctrlCPatterm(args: { samples: number }): Promise<{ ms: number[]; backlogBytes: number[] }> {
  await loadGhosttyModule();
  const coordinator = new Coordinator();
  coordinator.setPaneSize(PANE.cols, PANE.rows);
  try {
    const pane = await coordinator.spawn({ argv: BASH_ARGV, env: BASH_ENV, kind: 'process' });
    const first = await coordinator.waitFor(pane.id, { pattern: PROMPT_BACK, timeoutMs: 10_000 });
    if (!first.matched) throw new Error(`no prompt: ${first.snippet}`);
    const ms: number[] = [];
    const backlogBytes: number[] = [];
    for (let i = 0; i < args.samples; i++) {
      coordinator.write(pane.id, 'yes\r', 'user');
      await sleep(FLOOD_MS);
      const before = (await coordinator.stream(pane.id, Number.MAX_SAFE_INTEGER)).headOffset;
      const started = performance.now();
      coordinator.write(pane.id, '\x03', 'user');
      const back = await coordinator.waitFor(pane.id, { pattern: PROMPT_BACK, timeoutMs: 30_000, stableMs: QUIET_MS });
      if (!back.matched) throw new Error(`prompt did not come back after Ctrl-C: ${back.snippet}`);
      ms.push(performance.now() - started - QUIET_MS);
      backlogBytes.push((await coordinator.stream(pane.id, Number.MAX_SAFE_INTEGER)).headOffset - before);
    }
    return { ms, backlogBytes };
  } finally {
    await coordinator.shutdown(500);
  }
}
