/**
 * resize-flood: what a resize of a flooding pane costs the pane's worker.
 * patterm's resize carries the cursor through ghostty-web's reflow
 * (src/workers/cursor-reflow.ts); the baseline is ghostty-web's own resize
 * of the same screen and scrollback, in the same process and run.
 */
import { MIB } from '../harness/datasets.js';
import type { Scenario } from '../harness/scenario.js';
import { median } from '../harness/stats.js';
import { PANE } from '../harness/fence.js';
import { RESIZE_WIDTHS, type ResizeCarry } from '../probes/resize-carry.js';

const FLOOD_BYTES = 16 * MIB;
const QUICK_FLOOD_BYTES = 4 * MIB;

const scenario: Scenario = {
  name: 'resize-flood',
  description: 'a flooding pane resized every 256 KiB: the resize with the cursor carried through the reflow, against ghostty-web\'s own',
  defaultRuns: 3,
  secondsPerRun: 7,
  datasets: (quick) => [{ name: 'mixed', bytes: quick ? QUICK_FLOOD_BYTES : FLOOD_BYTES }],
  async run(ctx) {
    const data = await ctx.dataset('mixed', ctx.quick ? QUICK_FLOOD_BYTES : FLOOD_BYTES);
    let resizes = 0;
    let moved = 0;
    for (let run = 0; run < ctx.runs; run++) {
      const result = await ctx.probe<ResizeCarry>('resize-carry', { path: data.path, bytes: data.bytes });
      for (const [contender, times] of [['patterm', result.carried], ['bare-ghostty', result.plain]] as const) {
        ctx.record({ metric: 'resize CPU, median', contender, unit: 'ms', better: 'lower', value: median(times.cpu), run });
        ctx.record({ metric: 'resize wall, median', contender, unit: 'ms', better: 'lower', value: median(times.wall), run });
      }
      const ratio = median(result.carried.cpu) / median(result.plain.cpu);
      ctx.record({ metric: 'patterm / bare-ghostty, resize CPU', contender: 'ratio', unit: 'x', better: 'lower', value: ratio, run });
      ctx.log(`run ${run + 1}/${ctx.runs}: resize CPU median ${median(result.carried.cpu).toFixed(2)} ms carried, ${median(result.plain.cpu).toFixed(2)} ms ghostty's own (${ratio.toFixed(3)}x)`);
      resizes += result.carried.cpu.length;
      moved += result.moved;
    }
    // CPU, not the clock: on a shared machine a resize's wall time swings with the load far more (docs/perf-notes.md).
    ctx.target({ label: 'carrying the cursor adds at most 10% to a resize', metric: 'patterm / bare-ghostty, resize CPU', contender: 'ratio', op: '<=', threshold: 1.1 });
    ctx.note(`${(data.bytes / MIB).toFixed(0)} MiB of mixed at ${PANE.cols} columns, default scrollback (full after the first MiB); widths ${RESIZE_WIDTHS.join(', ')} in turn; both emulators fed the same batches; after ${moved} of ${resizes} resizes the two cursors differed (the carrying moved it)`);
  },
};

export default scenario;
