/**
 * mcp: read_output (grid) latency and wait_for_pattern reaction time while 16
 * panes flood. The orchestrator reads a quiet child (the targets) and, for
 * information, one of the flooding children; both through the real MCP path
 * and directly on the Coordinator.
 */
import type { McpResult } from '../probes/mcp-patterm.js';
import { MIB } from '../harness/datasets.js';
import type { Scenario } from '../harness/scenario.js';
import { latencyFigures } from '../harness/stats.js';

const DATA_BYTES = 16 * MIB;
/**
 * A quiet read's p99 against the relay floor's in the same run: what the
 * hops alone cost under the flood (a server that does no work, see the
 * notes) is the machine's, and on a loaded two-core machine it alone can
 * exceed any fixed bound; patterm's own handling may add a fifth to it.
 */
const READ_P99_PER_FLOOR = 1.2;

const scenario: Scenario = {
  name: 'mcp',
  description: 'read_output latency and wait_for_pattern reaction under a 16-pane flood (real MCP client via mcp-stdio)',
  defaultRuns: 2,
  secondsPerRun: 28,
  datasets: () => [{ name: 'mixed', bytes: DATA_BYTES }],
  async run(ctx) {
    const data = await ctx.dataset('mixed', DATA_BYTES);
    for (let run = 0; run < ctx.runs; run++) {
      const result = await ctx.probe<McpResult>('mcp-patterm', { path: data.path, quick: ctx.quick }, { timeoutMs: 180_000 });
      const series: [string, string, number[]][] = [
        ['read_output quiet pane', 'patterm (MCP)', result.mcpQuietReadMs],
        ['wait_for_pattern reaction', 'patterm (MCP)', result.mcpWaitMs],
        ['read_output flooding pane', 'patterm (MCP)', result.mcpFloodReadMs],
        ['read_output quiet pane, one call per 50 ms', 'patterm (MCP)', result.mcpSparseReadMs],
        ['read_output quiet pane', 'relay floor', result.mcpFloorMs],
        ['read_output quiet pane', 'coordinator', result.directQuietReadMs],
        ['wait_for_pattern reaction', 'coordinator', result.directWaitMs],
        ['read_output flooding pane', 'coordinator', result.directFloodReadMs],
      ];
      // Where a quiet read's time goes: the hops to patterm, patterm's own handling, the hops back.
      const legs = result.mcpQuietReadLegs;
      series.push(['read_output quiet, there', 'patterm (MCP)', legs.there], ['read_output quiet, inside patterm', 'patterm (MCP)', legs.inside], ['read_output quiet, back', 'patterm (MCP)', legs.back]);
      for (const [metric, contender, samples] of series) {
        const figures = latencyFigures(samples);
        ctx.record({ metric: `${metric} p50`, contender, unit: 'ms', better: 'lower', value: figures.p50, run });
        ctx.record({ metric: `${metric} p99`, contender, unit: 'ms', better: 'lower', value: figures.p99, run });
      }
      const readP99 = latencyFigures(result.mcpQuietReadMs).p99;
      const floorP99 = latencyFigures(result.mcpFloorMs).p99;
      ctx.record({ metric: 'read_output quiet pane p99 / relay floor p99', contender: 'ratio', unit: 'x', better: 'lower', value: readP99 / floorP99, run });
      // The same calls with nothing flooding: the floor of the MCP path itself on this machine.
      const idle = await ctx.probe<McpResult>('mcp-patterm', { path: data.path, quick: true, floods: 0 }, { timeoutMs: 120_000 });
      for (const [metric, samples] of [['read_output, no flood', idle.mcpQuietReadMs], ['wait_for_pattern reaction, no flood', idle.mcpWaitMs]] as const) {
        const figures = latencyFigures(samples);
        ctx.record({ metric: `${metric} p50`, contender: 'patterm (MCP)', unit: 'ms', better: 'lower', value: figures.p50, run });
        ctx.record({ metric: `${metric} p99`, contender: 'patterm (MCP)', unit: 'ms', better: 'lower', value: figures.p99, run });
      }
      ctx.log(`run ${run + 1}: MCP read p99 ${readP99.toFixed(1)} ms (relay floor ${floorP99.toFixed(1)} ms), wait p99 ${latencyFigures(result.mcpWaitMs).p99.toFixed(1)} ms`);
    }
    ctx.target({ label: `read_output p99 at most ${READ_P99_PER_FLOOR}x the relay floor's p99 in the same run`, metric: 'read_output quiet pane p99 / relay floor p99', contender: 'ratio', op: '<=', threshold: READ_P99_PER_FLOOR });
    ctx.target({ label: 'wait_for_pattern reaction p99 under 10 ms', metric: 'wait_for_pattern reaction p99', contender: 'patterm (MCP)', op: '<', threshold: 10 });
    ctx.note('16 panes loop `cat` of the mixed dataset; the orchestrator (an SDK client in its own process, as an agent CLI is) reads a quiet `cat` child; reaction = marker typed into the child (kernel echo) until wait_for_pattern returns to the client; "coordinator" rows are the same calls on the Coordinator API without MCP');
    ctx.note('"relay floor" = the same SDK client and `patterm mcp-stdio` proxy calling a server on patterm\'s thread that answers at once with a canned reply as large as a quiet read\'s (bench/harness/mcp-relay-floor.ts), interleaved with the reads and counted as input as they are: what the hops alone cost under this flood, the part of a read\'s time that is the machine\'s, not patterm\'s');
    ctx.note('the target rows time reads 5 ms apart: after the first, each arrives while the floods still yield to the one before (parse-scheduler.ts); "one call per 50 ms" spaces them past that window, so every call meets the floods at full speed, as an agent calling between its turns does');
  },
};

export default scenario;
