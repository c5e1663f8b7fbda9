/** many-agents: 20 idle full-screen TUIs; memory of the whole process tree and time until all 20 are drawn. */
import type { ManyAgentsResult } from '../probes/many-agents-patterm.js';
import type { TreeMemory } from '../harness/process-tree.js';
import type { Scenario } from '../harness/scenario.js';

const GIB_IN_MIB = 1024;

const scenario: Scenario = {
  name: 'many-agents',
  description: '20 idle panes running a full-screen TUI (vim): tree RSS and time to spawn all 20',
  defaultRuns: 2,
  secondsPerRun: 5,
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      const patterm = await ctx.probe<ManyAgentsResult>('many-agents-patterm', null, { timeoutMs: 120_000 });
      const record = (contender: string, readyMs: number, memory: TreeMemory) => {
        ctx.record({ metric: 'all 20 ready', contender, unit: 'ms', better: 'lower', value: readyMs, run });
        ctx.record({ metric: 'tree RSS', contender, unit: 'MiB', better: 'lower', value: memory.treeRssMiB, run });
        ctx.record({ metric: 'tree PSS', contender, unit: 'MiB', better: 'lower', value: memory.treePssMiB, run });
        ctx.record({ metric: 'server process RSS', contender, unit: 'MiB', better: 'lower', value: memory.rootRssMiB, run });
      };
      record('patterm', patterm.readyMs, patterm.memory);
      ctx.record({ metric: 'RSS per pane (process)', contender: 'patterm', unit: 'MiB', better: 'lower', value: (patterm.memory.rootRssMiB - patterm.baseRssMiB) / 20, run });
      ctx.log(`run ${run + 1}: patterm ready in ${patterm.readyMs.toFixed(0)} ms, tree RSS ${patterm.memory.treeRssMiB.toFixed(0)} MiB (process ${patterm.memory.rootRssMiB.toFixed(0)})`);
      if (ctx.tmuxAvailable) {
        const tmux = await ctx.probe<{ readyMs: number; memory: TreeMemory }>('many-agents-tmux', null, { timeoutMs: 120_000 });
        record('tmux', tmux.readyMs, tmux.memory);
        ctx.record({ metric: 'tree RSS patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: patterm.memory.treeRssMiB / tmux.memory.treeRssMiB, run });
        ctx.log(`run ${run + 1}: tmux ready in ${tmux.readyMs.toFixed(0)} ms, tree RSS ${tmux.memory.treeRssMiB.toFixed(0)} MiB`);
      }
    }
    ctx.target({ label: 'under 1.5 GiB total RSS for 20 panes', metric: 'tree RSS', contender: 'patterm', op: '<', threshold: 1.5 * GIB_IN_MIB });
    ctx.target({ label: 'all 20 ready within 3 s', metric: 'all 20 ready', contender: 'patterm', op: '<', threshold: 3000 });
    if (ctx.tmuxAvailable) ctx.target({ label: "tree RSS at most 2x tmux's", metric: 'tree RSS patterm / tmux', contender: 'ratio', op: '<=', threshold: 2 });
    ctx.note('"server process" = the patterm process (main thread + 20 pane workers) or the tmux server; tree = it plus every child (20 vims); RSS sums count shared pages per process, PSS does not');
  },
};

export default scenario;
