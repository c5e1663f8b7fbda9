/**
 * fan-in: 8, then 16 panes flooding at once. Aggregate MB/s against tmux with
 * the same floods, and the keystroke-to-echo latency of one quiet pane.
 */
import type { FanInCeiling } from '../probes/fan-in-ceiling.js';
import type { FanInResult } from '../probes/fan-in-patterm.js';
import type { FanInTmuxResult } from '../probes/fan-in-tmux.js';
import { MIB } from '../harness/datasets.js';
import { mbPerSecond } from '../harness/fence.js';
import type { Scenario } from '../harness/scenario.js';
import { latencyFigures } from '../harness/stats.js';
import { THREAD_ROLES } from '../harness/thread-cpu.js';

/** 64 MiB in total either way: a run lasts long enough for ~150 echo samples on 2 cores. */
const TOTAL_BYTES = 64 * MIB;
const QUICK_TOTAL_BYTES = 16 * MIB;
const PANE_COUNTS = [8, 16];
const perPaneBytes = (panes: number, quick: boolean) => (quick ? QUICK_TOTAL_BYTES : TOTAL_BYTES) / panes;
/** The machine's CPU per MiB with 16 panes flooding, at most this times what reading and parsing the same bytes take (flood-scenario.ts). */
const CPU_RATIO_TO_FLOOR = 1.15;

const scenario: Scenario = {
  name: 'fan-in',
  description: '8 and 16 panes flooding at once: aggregate MB/s vs tmux, quiet-pane echo latency',
  defaultRuns: 2,
  secondsPerRun: 19.5,
  datasets: (quick) => PANE_COUNTS.map((panes) => ({ name: 'mixed' as const, bytes: perPaneBytes(panes, quick) })),
  async run(ctx) {
    for (let run = 0; run < ctx.runs; run++) {
      for (const panes of PANE_COUNTS) {
        const data = await ctx.dataset('mixed', perPaneBytes(panes, ctx.quick));
        const suffix = ` (${panes} panes)`;
        const contenders = ctx.tmuxAvailable ? ['patterm', 'tmux'] : ['patterm'];
        const order = run % 2 === 0 ? contenders : [...contenders].reverse();
        const speed: Record<string, number> = {};
        let machineCpu: number | null = null;
        const recordCpu = (contender: string, result: { bytes: number; busyMs: number | null }) => {
          if (result.busyMs !== null) ctx.record({ metric: `machine CPU per MiB${suffix}`, contender, unit: 'ms', better: 'lower', value: result.busyMs / (result.bytes / MIB), run });
        };
        for (const contender of order) {
          if (contender === 'tmux') {
            const result = await ctx.probe<FanInTmuxResult>('fan-in-tmux', { path: data.path, panes }, { timeoutMs: 300_000 });
            speed.tmux = mbPerSecond(result.bytes, result.ms);
            recordCpu('tmux', result);
          } else {
            const result = await ctx.probe<FanInResult>('fan-in-patterm', { path: data.path, panes }, { timeoutMs: 300_000 });
            speed.patterm = mbPerSecond(result.bytes, result.ms);
            recordCpu('patterm', result);
            for (const role of result.threads ? THREAD_ROLES : []) {
              ctx.record({ metric: `CPU per MiB, ${role}${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: result.threads![role] / (result.bytes / MIB), run });
            }
            if (result.busyMs !== null) machineCpu = result.busyMs / (result.bytes / MIB);
            const echo = latencyFigures(result.echoMs);
            ctx.record({ metric: `echo p50${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: echo.p50, run });
            ctx.record({ metric: `echo p99${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: echo.p99, run });
            ctx.record({ metric: `echo samples${suffix}`, contender: 'patterm', unit: 'n', better: 'higher', value: echo.n, run });
            if (result.startupEchoMs.length > 0) {
              ctx.record({ metric: `echo max while panes start${suffix}`, contender: 'patterm', unit: 'ms', better: 'lower', value: Math.max(...result.startupEchoMs), run });
            }
            ctx.log(`run ${run + 1} ${panes} panes: patterm echo p50 ${echo.p50.toFixed(1)} p99 ${echo.p99.toFixed(1)} ms over ${echo.n} samples`);
          }
          ctx.record({ metric: `aggregate${suffix}`, contender, unit: 'MB/s', better: 'higher', value: speed[contender], run });
          ctx.log(`run ${run + 1} ${panes} panes: ${contender} ${speed[contender].toFixed(1)} MB/s`);
        }
        if (speed.tmux) ctx.record({ metric: `patterm / tmux${suffix}`, contender: 'ratio', unit: 'x', better: 'higher', value: speed.patterm / speed.tmux, run });
        const ceiling = await ctx.probe<FanInCeiling>('fan-in-ceiling', { path: data.path, panes }, { timeoutMs: 300_000 });
        if (ceiling.readCpuMsPerMiB !== null && ceiling.parseCpuMsPerMiB !== null) {
          const floorCpu = ceiling.readCpuMsPerMiB + ceiling.parseCpuMsPerMiB;
          const ceilingSpeed = (ceiling.cores * 1000) / floorCpu;
          ctx.record({ metric: `machine CPU per MiB${suffix}`, contender: 'raw read + bare parse', unit: 'ms', better: 'lower', value: floorCpu, run });
          ctx.record({ metric: `aggregate${suffix}`, contender: 'ceiling', unit: 'MB/s', better: 'higher', value: ceilingSpeed, run });
          ctx.record({ metric: `patterm / ceiling${suffix}`, contender: 'ratio', unit: 'x', better: 'higher', value: speed.patterm / ceilingSpeed, run });
          if (machineCpu !== null) ctx.record({ metric: `patterm CPU / (raw read + bare parse)${suffix}`, contender: 'ratio', unit: 'x', better: 'lower', value: machineCpu / floorCpu, run });
          if (speed.tmux) ctx.record({ metric: `2x tmux / ceiling${suffix}`, contender: 'ratio', unit: 'x', better: 'lower', value: (2 * speed.tmux) / ceilingSpeed, run });
          ctx.log(`run ${run + 1} ${panes} panes: ceiling ${ceilingSpeed.toFixed(1)} MB/s (read ${ceiling.readCpuMsPerMiB.toFixed(1)} + parse ${ceiling.parseCpuMsPerMiB.toFixed(1)} CPU ms/MiB on ${ceiling.cores} cores)`);
        }
      }
    }
    if (ctx.tmuxAvailable) ctx.target({ label: '16 panes: aggregate >= 2x tmux', metric: 'patterm / tmux (16 panes)', contender: 'ratio', op: '>=', threshold: 2 });
    ctx.target({ label: `16 panes: machine CPU per MiB <= ${CPU_RATIO_TO_FLOOR}x raw read + bare parse`, metric: 'patterm CPU / (raw read + bare parse) (16 panes)', contender: 'ratio', op: '<=', threshold: CPU_RATIO_TO_FLOOR });
    ctx.target({ label: '16 panes: quiet-pane echo p99 < 16 ms', metric: 'echo p99 (16 panes)', contender: 'patterm', op: '<', threshold: 16 });
    ctx.note(`each pane cats the "mixed" dataset (log text with SGR-coloured lines); 64 MiB in total per run; echo = kernel echo in a "cat" pane, from the write until the frame the pane pushes (as to the TUI renderer) shows it, sampled every 10 ms; machine CPU = busy time of every core (all processes and the kernel, from /proc/stat) per MiB delivered; CPU per MiB, <thread> = patterm's process alone, by thread (bench/harness/thread-cpu.ts); ceiling = cores x 1000 / (CPU per MiB of N raw node-pty readers at once + of bare ghostty parse), the most any design that reads and parses every byte can reach with every core busy; "2x tmux / ceiling" above 1 means the 2x target asks for more than the machine has; p50/p99 count from the moment every flood pane has produced output (before that, the ${PANE_COUNTS.join('/')} pane workers booting, one per core at a time (worker-boot-gate.ts), are measured apart: "echo max while panes start")`);
  },
};

export default scenario;
