/**
 * animating-agents: 20 agent CLIs at work, each redrawing a spinner line ~12
 * times a second, nobody watching. What the terminal multiplexer costs to keep
 * their screens current, per second and per redraw, against tmux.
 */
import type { AnimatingResult } from '../probes/animating-agents-patterm.js';
import type { Scenario } from '../harness/scenario.js';
import { SPINNER_COUNT, SPINNER_STEP_MS, spinnerUpdates } from '../harness/spinner.js';

const scenario: Scenario = {
  name: 'animating-agents',
  description: `${SPINNER_COUNT} panes redrawing a spinner line every ${SPINNER_STEP_MS} ms, unwatched: CPU of patterm vs the tmux server`,
  defaultRuns: 1,
  secondsPerRun: 12,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const contenders: [string, string][] = [['patterm', 'animating-agents-patterm']];
      if (ctx.tmuxAvailable) contenders.push(['tmux', 'animating-agents-tmux']);
      const share: Record<string, number> = {};
      for (const [contender, probe] of run % 2 === 0 ? contenders : [...contenders].reverse()) {
        const result = await ctx.probe<AnimatingResult>(probe, null, { timeoutMs: 120_000 });
        share[contender] = (100 * result.cpuMs) / result.windowMs;
        ctx.record({ metric: 'CPU, % of one core', contender, unit: '%', better: 'lower', value: share[contender], run });
        ctx.record({ metric: 'CPU per redraw', contender, unit: 'ms', better: 'lower', value: result.cpuMs / spinnerUpdates(result.windowMs), run });
        if (result.mainThreadCpuMs !== undefined) ctx.record({ metric: 'of which main thread', contender, unit: '%', better: 'lower', value: (100 * result.mainThreadCpuMs) / result.windowMs, run });
        ctx.log(`run ${run + 1}: ${contender} ${share[contender].toFixed(1)} % of one core`);
      }
      if (share.tmux) ctx.record({ metric: 'patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: share.patterm / share.tmux, run });
    }
    if (ctx.tmuxAvailable) ctx.target({ label: "CPU at most 1.5x the tmux server's", metric: 'patterm / tmux', contender: 'ratio', op: '<=', threshold: 1.5 });
    ctx.note('CPU of the patterm process (main thread, PTY host, 20 pane workers and V8\'s helper threads) or of the tmux server, not of the spinners themselves; a redraw = one spinner step (erase the line, write ~50 bytes in colour)');
  },
};

export default scenario;
