/** spawn-churn: whether patterm gives memory back after cycles of many panes spawned and closed. */
import type { SpawnChurnResult } from '../probes/spawn-churn-patterm.js';
import type { Scenario } from '../harness/scenario.js';

const CYCLES = 10;
const PANES_PER_CYCLE = 100;

const scenario: Scenario = {
  name: 'spawn-churn',
  description: `${CYCLES} cycles of ${PANES_PER_CYCLE} idle panes spawned at once and closed: patterm's RSS after the churn against before it`,
  defaultRuns: 1,
  secondsPerRun: 190,
  async run(ctx) {
    const cycles = ctx.quick ? 2 : CYCLES;
    const panes = ctx.quick ? 20 : PANES_PER_CYCLE;
    for (let run = 0; run < ctx.runs; run++) {
      const result = await ctx.probe<SpawnChurnResult>('spawn-churn-patterm', { cycles, panes }, { timeoutMs: 900_000 });
      const end = result.afterCycleMiB.at(-1)!;
      ctx.record({ metric: 'RSS before the churn', contender: 'patterm', unit: 'MiB', better: 'lower', value: result.startMiB, run });
      ctx.record({ metric: 'RSS at the peak of a cycle', contender: 'patterm', unit: 'MiB', better: 'lower', value: result.peakMiB, run });
      ctx.record({ metric: 'RSS after the churn', contender: 'patterm', unit: 'MiB', better: 'lower', value: end, run });
      ctx.record({ metric: 'RSS 20 s after the churn', contender: 'patterm', unit: 'MiB', better: 'lower', value: result.settledMiB, run });
      ctx.record({ metric: 'after / before', contender: 'ratio', unit: 'x', better: 'lower', value: end / result.startMiB, run });
      ctx.record({ metric: '20 s after / before', contender: 'ratio', unit: 'x', better: 'lower', value: result.settledMiB / result.startMiB, run });
      // Growth across the later cycles alone: what the churn accumulates, without the first cycle's one-time warm-up.
      ctx.record({ metric: 'after / after the first cycle', contender: 'ratio', unit: 'x', better: 'lower', value: end / result.afterCycleMiB[0], run });
      ctx.log(`run ${run + 1}: ${result.startMiB.toFixed(0)} MiB -> ${result.afterCycleMiB.map((mib) => mib.toFixed(0)).join(', ')} MiB (peak ${result.peakMiB.toFixed(0)}), ${result.settledMiB.toFixed(0)} MiB 20 s later`);
    }
    ctx.target({ label: 'RSS comes back within 25% of before the churn', metric: '20 s after / before', contender: 'ratio', op: '<', threshold: 1.25 });
    ctx.note('RSS of the patterm process (its threads included, not the panes\' programs), each taken 2 s after a cycle\'s panes were closed, and once more 20 s after the last cycle\'s');
  },
};

export default scenario;
