/** exited-panes: what 40 finished short processes (test runs, builds) cost while they stay in the tree. */
import type { ExitedPanesResult } from '../probes/exited-panes-patterm.js';
import type { Scenario } from '../harness/scenario.js';
import { EXITED_PANES, EXITED_PANE_LINES } from '../harness/exited-pane.js';
import { FROZEN_HISTORY_CELLS } from '../../src/main/panes/frozen-pane.js';

const scenario: Scenario = {
  name: 'exited-panes',
  description: `${EXITED_PANES} short processes printing ${EXITED_PANE_LINES} lines each, exited and kept in the tree: RSS growth with their workers retired, live, and tmux (remain-on-exit)`,
  defaultRuns: 1,
  secondsPerRun: 22,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const retired = await ctx.probe<ExitedPanesResult>('exited-panes-patterm', { retire: true }, { timeoutMs: 180_000 });
      if (retired.retired !== EXITED_PANES) throw new Error(`only ${retired.retired} of ${EXITED_PANES} exited panes were retired`);
      const live = await ctx.probe<ExitedPanesResult>('exited-panes-patterm', { retire: false }, { timeoutMs: 180_000 });
      ctx.record({ metric: 'RSS growth', contender: 'patterm (retired)', unit: 'MiB', better: 'lower', value: retired.rssGrowthMiB, run });
      ctx.record({ metric: 'RSS growth', contender: 'patterm (live workers)', unit: 'MiB', better: 'lower', value: live.rssGrowthMiB, run });
      ctx.record({ metric: 'per exited pane, last 20', contender: 'patterm (retired)', unit: 'MiB', better: 'lower', value: retired.marginalMiB, run });
      ctx.record({ metric: 'per exited pane, last 20', contender: 'patterm (live workers)', unit: 'MiB', better: 'lower', value: live.marginalMiB, run });
      ctx.log(`run ${run + 1}: retired +${retired.rssGrowthMiB.toFixed(0)} MiB, live +${live.rssGrowthMiB.toFixed(0)} MiB`);
      if (ctx.tmuxAvailable) {
        const tmux = await ctx.probe<{ rssGrowthMiB: number; marginalMiB: number }>('exited-panes-tmux', null, { timeoutMs: 180_000 });
        ctx.record({ metric: 'RSS growth', contender: 'tmux', unit: 'MiB', better: 'lower', value: tmux.rssGrowthMiB, run });
        ctx.record({ metric: 'per exited pane, last 20', contender: 'tmux', unit: 'MiB', better: 'lower', value: tmux.marginalMiB, run });
        ctx.log(`run ${run + 1}: tmux +${tmux.rssGrowthMiB.toFixed(0)} MiB`);
      }
    }
    ctx.note('"per exited pane, last 20" = RSS growth over the last 20 panes, per pane: the first ones also warm the allocator\'s per-thread arenas, a cost paid once');
    ctx.note(`patterm retires an exited pane's worker 15 s after the exit (here 200 ms) and keeps its screen, its newest ${FROZEN_HISTORY_CELLS.toLocaleString('en')} cells of history (rows of its width) and its output ring; "live workers" is the same run with retirement off, as every exited pane was before`);
  },
};

export default scenario;
