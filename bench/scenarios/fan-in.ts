/**
 * fan-in: 8, then 16 panes flooding at once. Aggregate MB/s against tmux with
 * the same floods, and the keystroke-to-echo latency of one quiet pane.
 */
import type { FanInResult } from '../probes/fan-in-patterm.js';
import { MIB } from '../harness/datasets.js';
import { mbPerSecond } from '../harness/fence.js';
import type { Scenario } from '../harness/scenario.js';
import { latencyFigures } from '../harness/stats.js';

/** 64 MiB in total either way: a run lasts long enough for ~150 echo samples on 2 cores. */
const TOTAL_BYTES = 64 * MIB;
const QUICK_TOTAL_BYTES = 16 * MIB;
const PANE_COUNTS = [8, 16];
const perPaneBytes = (panes: number, quick: boolean) => (quick ? QUICK_TOTAL_BYTES : TOTAL_BYTES) / panes;

const scenario: Scenario = {
  name: 'fan-in',
  description: '8 and 16 panes flooding at once: aggregate MB/s vs tmux, quiet-pane echo latency',
  defaultRuns: 2,
  datasets: (quick) => PANE_COUNTS.map((panes) => ({ name: 'mixed' as const, bytes: perPaneBytes(panes, quick) })),
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      for (const panes of PANE_COUNTS) {
        const data = await ctx.dataset('mixed', perPaneBytes(panes, ctx.quick));
        const suffix = ` (${panes} panes)`;
        const contenders = ctx.tmuxAvailable ? ['patterm', 'tmux'] : ['patterm'];
        const order = run % 2 === 0 ? contenders : [...contenders].reverse();
        const speed: Record<string, number> = {};
        for (const contender of order) {
          if (contender === 'tmux') {
            const result = await ctx.probe<{ ms: number; bytes: number }>('fan-in-tmux', { path: data.path, panes }, { timeoutMs: 300_000 });
            speed.tmux = mbPerSecond(result.bytes, result.ms);
          } else {
            const result = await ctx.probe<FanInResult>('fan-in-patterm', { path: data.path, panes }, { timeoutMs: 300_000 });
            speed.patterm = mbPerSecond(result.bytes, result.ms);
            const echo = latencyFigures(result.echoMs);
            ctx.record({ metric: `echo p50${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: echo.p50, run });
            ctx.record({ metric: `echo p99${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: echo.p99, run });
            ctx.record({ metric: `echo samples${suffix}`, contender: 'patterm', unit: 'n', better: 'higher', value: echo.n, run });
            if (result.startupEchoMs.length > 0) {
              ctx.record({ metric: `echo max while panes start${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: Math.max(...result.startupEchoMs), run });
            }
            ctx.log(`run ${run + 1} ${panes} panes: patterm echo p50 ${echo.p50.toFixed(1)} p99 ${echo.p99.toFixed(1)} ms over ${echo.n} samples`);
          }
          ctx.record({ metric: `aggregate${suffix}`, contender, unit: 'MB/s', better: 'higher', value: speed[contender], run });
          ctx.log(`run ${run + 1} ${panes} panes: ${contender} ${speed[contender].toFixed(1)} MB/s`);
        }
        if (speed.tmux) ctx.record({ metric: `patterm / tmux${suffix}`, contender: 'ratio', unit: 'x', better: 'higher', value: speed.patterm / speed.tmux, run });
      }
    }
    if (ctx.tmuxAvailable) ctx.target({ label: '16 panes: aggregate >= 2x tmux', metric: 'patterm / tmux (16 panes)', contender: 'ratio', op: '>=', threshold: 2 });
    ctx.target({ label: '16 panes: quiet-pane echo p99 < 16 ms', metric: 'echo p99 (16 panes)', contender: 'patterm', op: '<', threshold: 16 });
    ctx.note(`each pane cats the "mixed" dataset (log text with SGR-coloured lines); 64 MiB in total per run; echo = kernel echo in a "cat" pane, from the write until the frame the pane pushes (as to the TUI renderer) shows it, sampled every 10 ms; p50/p99 count from the moment every flood pane has produced output (before that, ${PANE_COUNTS.join('/')} pane workers starting at once on 2 cores dominate: "echo max while panes start")`);
  },
};

export default scenario;
