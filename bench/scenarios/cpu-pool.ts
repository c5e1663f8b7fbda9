/**
 * cpu-pool: whether putting stateless CPU work on the piscina pool helps.
 * (1) read_output-style stream reads of 1 MiB (decode, strip, grep) inline on
 * the coordinator thread versus on the pool, with a user typing meanwhile;
 * (2) the bench's dataset generation, sequential versus pooled.
 */
import type { CpuPoolStreamResult } from '../probes/cpu-pool-stream.js';
import { MIB } from '../harness/datasets.js';
import type { Scenario } from '../harness/scenario.js';
import { latencyFigures, median } from '../harness/stats.js';

const STREAM_DATA_BYTES = 8 * MIB;
const GENERATE_BYTES = 8 * MIB;

const scenario: Scenario = {
  name: 'cpu-pool',
  description: 'piscina pool: 1 MiB stream reads (strip + grep) and dataset generation, inline vs pooled',
  defaultRuns: 1,
  secondsPerRun: 4,
  datasets: () => [{ name: 'mixed', bytes: STREAM_DATA_BYTES }],
  async run(ctx) {
    const data = await ctx.dataset('mixed', STREAM_DATA_BYTES);
    for (let run = 0; run < ctx.runs; run++) {
      const figures: Record<string, CpuPoolStreamResult> = {};
      for (const mode of run % 2 === 0 ? (['inline', 'pool'] as const) : (['pool', 'inline'] as const)) {
        const result = await ctx.probe<CpuPoolStreamResult>('cpu-pool-stream', { path: data.path, mode });
        figures[mode] = result;
        ctx.record({ metric: '1 MiB stream read', contender: mode, unit: 'ms', better: 'lower', value: median(result.readMs), run });
        ctx.record({ metric: 'coordinator loop delay p99', contender: mode, unit: 'ms', better: 'lower', value: result.loopDelayP99Ms, run });
        ctx.record({ metric: 'quiet-pane echo p99 meanwhile', contender: mode, unit: 'ms', better: 'lower', value: latencyFigures(result.echoMs).p99, run });
      }
      ctx.record({ metric: 'echo p99: pool / inline', contender: 'ratio', unit: 'x', better: 'lower', value: latencyFigures(figures.pool.echoMs).p99 / latencyFigures(figures.inline.echoMs).p99, run });
      const bytes = ctx.quick ? 2 * MIB : GENERATE_BYTES;
      const sequential = await ctx.probe<{ ms: number }>('cpu-pool-generate', { bytes, mode: 'sequential' });
      const pooled = await ctx.probe<{ ms: number }>('cpu-pool-generate', { bytes, mode: 'pool' });
      ctx.record({ metric: 'generate 4 datasets', contender: 'sequential', unit: 'ms', better: 'lower', value: sequential.ms, run });
      ctx.record({ metric: 'generate 4 datasets', contender: 'pool', unit: 'ms', better: 'lower', value: pooled.ms, run });
      ctx.record({ metric: 'generation: pool / sequential', contender: 'ratio', unit: 'x', better: 'lower', value: pooled.ms / sequential.ms, run });
    }
    ctx.note('stream reads: 40 back-to-back reads of 1 MiB of the mixed dataset, grep "error"; echo sampled every 5 ms meanwhile; generation: 4 datasets of 8 MiB');
  },
};

export default scenario;
