/**
 * resume-20: twenty agent panes brought back by `patterm --resume` (its plan
 * and runner, each agent on its recorded conversation) against the same twenty
 * started fresh, in the same run: launch until every pane shows its ready signal.
 */
import type { Scenario } from '../harness/scenario.js';
import type { ResumeArgs, ResumeResult } from '../probes/resume-20.js';

const scenario: Scenario = {
  name: 'resume-20',
  description: '20 fake agents (4 sessions of 5) resumed from a layout record vs started fresh: launch until all are ready',
  defaultRuns: 3,
  secondsPerRun: 30,
  async run(ctx) {
    const modes: ResumeArgs['mode'][] = ['fresh', 'resume'];
    for (let run = 0; run < ctx.runs; run++) {
      const ms = new Map<ResumeArgs['mode'], number>();
      // Rotate the order per run so slow drift on a shared machine spreads evenly.
      for (const mode of modes.map((_, i) => modes[(i + run) % modes.length])) {
        const result = await ctx.probe<ResumeResult>('resume-20', { mode } satisfies ResumeArgs, { timeoutMs: 180_000 });
        if (result.notReady.length > 0) throw new Error(`${mode}: ${result.notReady.length} of ${result.panes} panes never got ready: ${result.notReady.join('; ')}`);
        ms.set(mode, result.allReadyMs);
        ctx.record({ metric: 'launch to all 20 ready', contender: mode === 'fresh' ? 'started fresh' : 'resumed', unit: 'ms', better: 'lower', value: result.allReadyMs, run });
        ctx.log(`run ${run + 1}/${ctx.runs} ${mode}: ${result.panes} panes ready after ${result.allReadyMs.toFixed(0)} ms`);
      }
      ctx.record({ metric: 'resumed / fresh', contender: 'ratio', unit: 'x', better: 'lower', value: ms.get('resume')! / ms.get('fresh')!, run });
    }
    ctx.target({ label: 'resuming 20 agents within 1.2x of starting them fresh', metric: 'resumed / fresh', contender: 'ratio', op: '<=', threshold: 1.2 });
    ctx.note('each run: a fresh probe process per mode, patterm prewarmed (PTY host and a spare worker up); the fake agent connects to MCP and reports its conversation through the claude preset\'s SessionStart hook in both modes; resumed panes also read their earlier turns and print them');
  },
};

export default scenario;
