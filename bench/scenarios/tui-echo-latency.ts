/**
 * TUI: keystroke-to-echo latency in a quiet pane while other panes flood
 * (p50 and p99, target p99 < 16 ms: within one 60 Hz frame). Same run, same machine:
 * patterm with 4 flooding sessions, patterm with none, tmux with 4 flooding
 * windows, and bash straight in a PTY as the floor.
 */
import type { BenchContext, Scenario } from '../harness/scenario.js';
import { percentile } from '../harness/stats.js';
import type { EchoArgs } from '../probes/tui-echo-patterm.js';

const FLOODS = 4;
const SAMPLES = 300;
const QUICK_SAMPLES = 60;
/** The flood data: coloured log lines, looped by each flooding pane. */
const FLOOD_DATASET = 'sgr';
const FLOOD_BYTES = 8 * 1024 * 1024;
const HOST = { cols: 160, rows: 50 };
const PROBE_TIMEOUT_MS = 240_000;

const CONTENDERS = [
  { contender: 'patterm', probe: 'tui-echo-patterm', floods: FLOODS },
  { contender: 'patterm (no flood)', probe: 'tui-echo-patterm', floods: 0 },
  { contender: 'tmux', probe: 'tui-echo-tmux', floods: FLOODS },
  { contender: 'raw-pty', probe: 'tui-echo-raw-pty', floods: 0 },
] as const;

const scenario: Scenario = {
  name: 'tui-echo-latency',
  description: `keystroke-to-echo in a quiet pane while ${FLOODS} other panes flood`,
  defaultRuns: 2, // 300 keys a run; a third run put the whole suite at the 10-minute limit
  secondsPerRun: 64,
  datasets: () => [{ name: FLOOD_DATASET, bytes: FLOOD_BYTES }],
  async run(ctx: BenchContext) {
    const data = await ctx.dataset(FLOOD_DATASET, FLOOD_BYTES);
    const contenders = CONTENDERS.filter((c) => c.contender !== 'tmux' || ctx.tmuxAvailable);
    for (let run = 0; run < ctx.runs; run++) {
      // Rotate the order per run so slow drift on a shared machine spreads evenly.
      const order = contenders.map((_, i) => contenders[(i + run) % contenders.length]);
      const p99: Record<string, number> = {};
      for (const { contender, probe, floods } of order) {
        const args: EchoArgs = { floods, samples: ctx.quick ? QUICK_SAMPLES : SAMPLES, floodPath: data.path, ...HOST };
        const { samples } = await ctx.probe<{ samples: number[] }>(probe, args, { timeoutMs: PROBE_TIMEOUT_MS });
        for (const p of [50, 99]) {
          ctx.record({ metric: `echo p${p}`, contender, unit: 'ms', better: 'lower', value: percentile(samples, p), run });
        }
        p99[contender] = percentile(samples, 99);
        ctx.log(`run ${run + 1}/${ctx.runs} ${contender}: p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`);
      }
      if (p99.tmux) ctx.record({ metric: 'echo p99 / tmux echo p99', contender: 'ratio', unit: 'x', better: 'lower', value: p99.patterm / p99.tmux, run });
    }
    ctx.target({ label: 'p99 < 16 ms with 4 panes flooding', metric: 'echo p99', contender: 'patterm', op: '<', threshold: 16 });
    if (ctx.tmuxAvailable) ctx.target({ label: "p99 at most tmux's with 4 panes flooding, in the same run", metric: 'echo p99 / tmux echo p99', contender: 'ratio', op: '<=', threshold: 1 });
    ctx.note(`${SAMPLES} keys ${HOST.cols}x${HOST.rows}, one every 30 ms; flooding panes loop ${FLOOD_BYTES / 1024 / 1024} MiB of ${FLOOD_DATASET} lines`);
    if (!ctx.tmuxAvailable) ctx.note('tmux is not installed: its baseline is skipped');
  },
};

export default scenario;
