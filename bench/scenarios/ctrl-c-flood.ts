/** ctrl-c-flood: `yes` in a pane, then Ctrl-C; time until the prompt is back and quiet, patterm and tmux. */
import type { Scenario } from '../harness/scenario.js';
import { median } from '../harness/stats.js';

const SAMPLES_PER_RUN = 3;

const scenario: Scenario = {
  name: 'ctrl-c-flood',
  description: '`yes` in a bash pane, then Ctrl-C: time until the prompt is back and quiet',
  defaultRuns: 2,
  secondsPerRun: 8.5,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const patterm = await ctx.probe<{ ms: number[]; backlogBytes: number[] }>('ctrl-c-patterm', { samples: SAMPLES_PER_RUN }, { timeoutMs: 120_000 });
      const pattermMs = median(patterm.ms);
      ctx.record({ metric: 'prompt back', contender: 'patterm', unit: 'ms', better: 'lower', value: pattermMs, run });
      ctx.record({ metric: 'output parsed after ^C', contender: 'patterm', unit: 'KiB', better: 'lower', value: median(patterm.backlogBytes) / 1024, run });
      ctx.log(`run ${run + 1}: patterm ${patterm.ms.map((ms) => ms.toFixed(0)).join(', ')} ms`);
      if (ctx.tmuxAvailable) {
        const tmux = await ctx.probe<{ ms: number[] }>('ctrl-c-tmux', { samples: SAMPLES_PER_RUN }, { timeoutMs: 120_000 });
        const tmuxMs = median(tmux.ms);
        ctx.record({ metric: 'prompt back', contender: 'tmux', unit: 'ms', better: 'lower', value: tmuxMs, run });
        ctx.record({ metric: 'patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: pattermMs / tmuxMs, run });
        ctx.log(`run ${run + 1}: tmux ${tmux.ms.map((ms) => ms.toFixed(0)).join(', ')} ms`);
      }
    }
    ctx.note(`each run: median of ${SAMPLES_PER_RUN} Ctrl-Cs after 1 s of \`yes\`; "quiet" = no screen change for 200 ms (not counted); tmux is polled with capture-pane every 5 ms`);
  },
};

export default scenario;
