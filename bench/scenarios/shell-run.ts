/**
 * shell-run: run_command of `true`, one after another in one bash shell pane,
 * through the real MCP proxy; and the same loop done by hand in tmux
 * (send-keys, then capture-pane polled for the prompt), in the same run. Also
 * what the shell integration adds to an interactive prompt, bash and zsh.
 */
import type { Scenario } from '../harness/scenario.js';
import { latencyFigures, median } from '../harness/stats.js';

const CALLS = 200;
const WARMUP = 10;
const PROMPT_SAMPLES = 100;

const scenario: Scenario = {
  name: 'shell-run',
  description: `${CALLS} run_command calls of \`true\` in one bash shell pane vs send-keys + capture-pane polling in tmux; prompt time with and without the integration`,
  defaultRuns: 3,
  secondsPerRun: 25,
  async run(ctx) {
    const calls = ctx.quick ? 40 : CALLS;
    const samples = ctx.quick ? 20 : PROMPT_SAMPLES;
    for (let run = 0; run < ctx.runs; run++) {
      const patterm = latencyFigures((await ctx.probe<{ ms: number[] }>('shell-run-patterm', { calls, warmup: WARMUP }, { timeoutMs: 180_000 })).ms);
      ctx.record({ metric: 'run_command p50', contender: 'patterm', unit: 'ms', better: 'lower', value: patterm.p50, run });
      ctx.record({ metric: 'run_command p99', contender: 'patterm', unit: 'ms', better: 'lower', value: patterm.p99, run });
      ctx.log(`run ${run + 1}: patterm p50 ${patterm.p50.toFixed(1)} ms, p99 ${patterm.p99.toFixed(1)} ms`);
      if (ctx.tmuxAvailable) {
        const tmux = latencyFigures((await ctx.probe<{ ms: number[] }>('shell-run-tmux', { calls, warmup: WARMUP }, { timeoutMs: 180_000 })).ms);
        ctx.record({ metric: 'run_command p50', contender: 'tmux', unit: 'ms', better: 'lower', value: tmux.p50, run });
        ctx.record({ metric: 'run_command p99', contender: 'tmux', unit: 'ms', better: 'lower', value: tmux.p99, run });
        ctx.record({ metric: 'p50 patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: patterm.p50 / tmux.p50, run });
        ctx.record({ metric: 'p99 patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: patterm.p99 / tmux.p99, run });
        ctx.log(`run ${run + 1}: tmux p50 ${tmux.p50.toFixed(1)} ms, p99 ${tmux.p99.toFixed(1)} ms`);
      }
      const prompts = await ctx.probe<Record<string, number[]>>('shell-prompt-overhead', { samples }, { timeoutMs: 180_000 });
      for (const shell of ['bash', 'zsh']) {
        const without = median(prompts[`${shell} without`]);
        const withIt = median(prompts[`${shell} with`]);
        ctx.record({ metric: `${shell} Enter to prompt`, contender: 'without integration', unit: 'ms', better: 'lower', value: without, run });
        ctx.record({ metric: `${shell} Enter to prompt`, contender: 'with integration', unit: 'ms', better: 'lower', value: withIt, run });
        ctx.record({ metric: `${shell} integration adds`, contender: 'overhead', unit: 'ms', better: 'lower', value: withIt - without, run });
      }
    }
    ctx.target({ label: 'run_command p50 under 20 ms', metric: 'run_command p50', contender: 'patterm', op: '<', threshold: 20 });
    if (ctx.tmuxAvailable) {
      ctx.target({ label: 'run_command p50 below tmux\'s', metric: 'p50 patterm / tmux', contender: 'ratio', op: '<', threshold: 1 });
      ctx.target({ label: 'run_command p99 below tmux\'s', metric: 'p99 patterm / tmux', contender: 'ratio', op: '<', threshold: 1 });
    }
    ctx.note(`each run: ${calls} calls after ${WARMUP} unrecorded ones; patterm's from the agent's call to the record it gets back, through \`patterm mcp-stdio\`, from a client in its own process; tmux's from send-keys to the prompt under the command's line in capture-pane, polled every 1 ms`);
    ctx.note(`Enter to prompt: bash and zsh on a bare PTY, login shells with the same start-up files, median of ${samples} \`true\`s each`);
  },
};

export default scenario;
