/**
 * spawn-cost: what starting a pane's child costs the parent, at its own size
 * and with 512 MiB more resident. fork() copies page tables, so its cost grows
 * with the parent; patterm's node-pty spawns with posix_spawn, which should not.
 */
import type { Scenario } from '../harness/scenario.js';
import type { SpawnCostResult } from '../probes/spawn-cost.js';

const scenario: Scenario = {
  name: 'spawn-cost',
  description: "starting a child from a small and a large parent: patterm's node-pty (posix_spawn) vs fork()",
  defaultRuns: 2,
  secondsPerRun: 1,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const result = await ctx.probe<SpawnCostResult>('spawn-cost', {});
      for (const [contender, ms] of [['patterm (node-pty, posix_spawn)', result.ptyMs], ['fork (child_process)', result.forkMs]] as const) {
        ctx.record({ metric: 'spawn, parent at its own size', contender, unit: 'ms', better: 'lower', value: ms.small, run });
        ctx.record({ metric: 'spawn, parent +512 MiB', contender, unit: 'ms', better: 'lower', value: ms.large, run });
        ctx.record({ metric: 'large / small', contender, unit: 'x', better: 'lower', value: ms.large / ms.small, run });
      }
      ctx.log(`run ${run + 1}: rss ${result.rssMiB.small.toFixed(0)} -> ${result.rssMiB.large.toFixed(0)} MiB; node-pty ${result.ptyMs.small.toFixed(2)} -> ${result.ptyMs.large.toFixed(2)} ms; fork ${result.forkMs.small.toFixed(2)} -> ${result.forkMs.large.toFixed(2)} ms`);
    }
    ctx.note('median of 15 spawns of `true` each; the time of the spawn call in the parent, which blocks the thread making it (in patterm, the PTY host thread that reads every pane); 512 MiB of touched ballast is about what 20 panes add to patterm');
  },
};

export default scenario;
