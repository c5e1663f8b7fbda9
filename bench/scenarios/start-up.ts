/**
 * start-up: `patterm` launched in a real PTY until its first frame is drawn,
 * and Quit until the process is gone; tmux starting a server and session until
 * its shell prompt is drawn, and Node printing one line (the floor any Node
 * program starts from), in the same run.
 */
import type { Scenario } from '../harness/scenario.js';
import { median } from '../harness/stats.js';
import type { StartUpArgs, StartUpContender, StartUpResult } from '../probes/start-up.js';

const LAUNCHES = 5;
const QUICK_LAUNCHES = 2;
const HOST = { cols: 160, rows: 50 };

const scenario: Scenario = {
  name: 'start-up',
  description: 'patterm launched in a PTY until its first frame, and Quit until it exits; tmux and bare Node alongside',
  defaultRuns: 2,
  secondsPerRun: 10,
  async run(ctx) {
    const contenders: StartUpContender[] = ctx.tmuxAvailable ? ['patterm', 'tmux', 'node'] : ['patterm', 'node'];
    for (let run = 0; run < ctx.runs; run++) {
      const firstFrame = new Map<StartUpContender, number>();
      // Rotate the order per run so slow drift on a shared machine spreads evenly.
      for (const contender of contenders.map((_, i) => contenders[(i + run) % contenders.length])) {
        const args: StartUpArgs = { contender, launches: ctx.quick ? QUICK_LAUNCHES : LAUNCHES, ...HOST };
        const result = await ctx.probe<StartUpResult>('start-up', args, { timeoutMs: 120_000 });
        firstFrame.set(contender, median(result.firstFrameMs));
        ctx.record({ metric: 'first frame', contender, unit: 'ms', better: 'lower', value: median(result.firstFrameMs), run });
        if (result.quitMs.length > 0) ctx.record({ metric: 'Quit to exit', contender, unit: 'ms', better: 'lower', value: median(result.quitMs), run });
        ctx.log(`run ${run + 1}/${ctx.runs} ${contender}: first frame ${result.firstFrameMs.map((ms) => ms.toFixed(0)).join(', ')} ms${result.quitMs.length > 0 ? `; Quit to exit ${result.quitMs.map((ms) => ms.toFixed(0)).join(', ')} ms` : ''}`);
      }
      const patterm = firstFrame.get('patterm')!;
      ctx.record({ metric: 'patterm / node', contender: 'ratio', unit: 'x', better: 'lower', value: patterm / firstFrame.get('node')!, run });
      if (firstFrame.has('tmux')) ctx.record({ metric: 'patterm / tmux', contender: 'ratio', unit: 'x', better: 'lower', value: patterm / firstFrame.get('tmux')!, run });
    }
    ctx.target({ label: "first frame at most 2x bare Node's one-line start", metric: 'patterm / node', contender: 'ratio', op: '<=', threshold: 2 });
    ctx.target({ label: 'Quit to exit under 100 ms', metric: 'Quit to exit', contender: 'patterm', op: '<', threshold: 100 });
    ctx.note(`median of ${ctx.quick ? QUICK_LAUNCHES : LAUNCHES} launches per run, ${HOST.cols}x${HOST.rows}; first frame = spawn until the chunk that drew patterm's empty state ("Press Ctrl-K"), tmux's prompt, or Node's line arrived; patterm's config, data and cache directories exist (an untimed launch made them, and the app's code cache)`);
  },
};

export default scenario;
