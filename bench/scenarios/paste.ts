/** paste: a 50 KB prompt injected with bracketed paste; time until the child has all of it. */
import type { Scenario } from '../harness/scenario.js';
import { median } from '../harness/stats.js';

const SAMPLES_PER_RUN = 5;

const scenario: Scenario = {
  name: 'paste',
  description: '50 KB prompt injected with bracketed paste: time until the child has it all',
  defaultRuns: 2,
  secondsPerRun: 0.6,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const patterm = median((await ctx.probe<{ ms: number[] }>('paste-patterm', { samples: SAMPLES_PER_RUN })).ms);
      ctx.record({ metric: 'paste delivered', contender: 'patterm', unit: 'ms', better: 'lower', value: patterm, run });
      if (ctx.tmuxAvailable) {
        const tmux = median((await ctx.probe<{ ms: number[] }>('paste-tmux', { samples: SAMPLES_PER_RUN })).ms);
        ctx.record({ metric: 'paste delivered', contender: 'tmux', unit: 'ms', better: 'lower', value: tmux, run });
        ctx.record({ metric: 'patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: patterm / tmux, run });
      }
    }
    ctx.note(`median of ${SAMPLES_PER_RUN} pastes per run; the child (raw mode, bracketed paste on) prints the byte count it received; patterm: Coordinator.write then the grid shows the count; tmux: paste-buffer -p then capture-pane (polled every 2 ms)`);
  },
};

export default scenario;
