/**
 * mcp-headless: an MCP host driving patterm from outside, two ways in the same
 * run: `patterm mcp` as its stdio server, and a running TUI's socket through
 * the entry "Connect an external orchestrator…" shows. read_output and
 * wait_for_pattern reaction, p50 and p99, on a quiet child; and the start-up
 * of `patterm mcp` until it answers initialize, against bare Node.
 */
import type { HeadlessResult } from '../probes/mcp-headless.js';
import { HEADLESS, SOCKET } from '../probes/mcp-headless.js';
import type { Scenario } from '../harness/scenario.js';
import { latencyFigures, median } from '../harness/stats.js';

const scenario: Scenario = {
  name: 'mcp-headless',
  description: 'an outside MCP host: read_output and wait_for_pattern through `patterm mcp` vs through a TUI\'s socket; start-up until initialize vs bare Node',
  defaultRuns: 2,
  secondsPerRun: 30,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const result = await ctx.probe<HeadlessResult>('mcp-headless', { quick: ctx.quick }, { timeoutMs: 240_000 });
      const p99: Record<string, { read: number; wait: number }> = {};
      for (const contender of [HEADLESS, SOCKET]) {
        const read = latencyFigures(result.calls[contender].readMs);
        const wait = latencyFigures(result.calls[contender].waitMs);
        p99[contender] = { read: read.p99, wait: wait.p99 };
        ctx.record({ metric: 'read_output p50', contender, unit: 'ms', better: 'lower', value: read.p50, run });
        ctx.record({ metric: 'read_output p99', contender, unit: 'ms', better: 'lower', value: read.p99, run });
        ctx.record({ metric: 'wait_for_pattern reaction p50', contender, unit: 'ms', better: 'lower', value: wait.p50, run });
        ctx.record({ metric: 'wait_for_pattern reaction p99', contender, unit: 'ms', better: 'lower', value: wait.p99, run });
      }
      ctx.record({ metric: 'read_output p99, patterm mcp / TUI socket', contender: 'ratio', unit: 'x', better: 'lower', value: p99[HEADLESS].read / p99[SOCKET].read, run });
      ctx.record({ metric: 'wait_for_pattern p99, patterm mcp / TUI socket', contender: 'ratio', unit: 'x', better: 'lower', value: p99[HEADLESS].wait / p99[SOCKET].wait, run });
      const initialize = median(result.initializeMs);
      const node = median(result.nodeMs);
      ctx.record({ metric: 'start-up to initialize answer', contender: HEADLESS, unit: 'ms', better: 'lower', value: initialize, run });
      ctx.record({ metric: 'start-up to tools/list answer', contender: HEADLESS, unit: 'ms', better: 'lower', value: median(result.toolsListMs), run });
      ctx.record({ metric: 'start-up to initialize answer', contender: 'node', unit: 'ms', better: 'lower', value: node, run });
      ctx.record({ metric: 'start-up, patterm mcp / node', contender: 'ratio', unit: 'x', better: 'lower', value: initialize / node, run });
      ctx.log(`run ${run + 1}: read p99 ${p99[HEADLESS].read.toFixed(1)} vs ${p99[SOCKET].read.toFixed(1)} ms, wait p99 ${p99[HEADLESS].wait.toFixed(1)} vs ${p99[SOCKET].wait.toFixed(1)} ms, initialize ${initialize.toFixed(0)} vs node ${node.toFixed(0)} ms`);
    }
    ctx.target({ label: 'read_output p99 no worse through patterm mcp than through the TUI socket', metric: 'read_output p99, patterm mcp / TUI socket', contender: 'ratio', op: '<=', threshold: 1 });
    ctx.target({ label: 'wait_for_pattern p99 no worse through patterm mcp than through the TUI socket', metric: 'wait_for_pattern p99, patterm mcp / TUI socket', contender: 'ratio', op: '<=', threshold: 1 });
    ctx.target({ label: 'read_output p99 under 5 ms through patterm mcp', metric: 'read_output p99', contender: HEADLESS, op: '<', threshold: 5 });
    ctx.target({ label: 'start-up to the initialize answer at most 2x bare Node', metric: 'start-up, patterm mcp / node', contender: 'ratio', op: '<=', threshold: 2 });
    ctx.note('one SDK client process is the host of both servers, calls interleaved, 5 ms apart; the child copies a FIFO to its terminal, and a wait is timed from the marker written into the FIFO until the call returns; nothing floods');
    ctx.note('"TUI socket" = the entry "Connect an external orchestrator…" shows (`patterm mcp-stdio`, the socket, the session\'s token) against a coordinator with the TUI\'s worker nice; "patterm mcp" answers initialize before loading the rest of patterm, so its tools/list answer (when the session is usable) is reported beside it');
    ctx.note('start-up: median of the launches, alternating with Node answering one line on stdin; config directories exist (an untimed launch made them)');
  },
};

export default scenario;
