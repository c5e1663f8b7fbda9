/**
 * The contract every bench scenario follows. A scenario is one file,
 * `bench/scenarios/<name>.ts`, whose default export is a Scenario. The runner
 * finds it by file name, so `pnpm bench <name>` works with no registration.
 *
 * A scenario measures patterm and, in the same run and on the same bytes, the
 * baselines; it records every run's figure, the per-run ratios, and its targets.
 * The harness turns that into the table (median, min, max) and the JSON report.
 */
import type { Dataset } from './datasets.js';
import type { DatasetName } from './flood-data.js';

export type Better = 'higher' | 'lower';

/** Who produced a figure. Baselines use these names; anything else is free text. */
export type Contender = 'patterm' | 'raw-pty' | 'bare-ghostty' | 'xterm-headless' | 'tmux' | 'ratio' | (string & {});

export interface Sample {
  /** What is measured, e.g. "throughput" or "echo p99". */
  metric: string;
  contender: Contender;
  unit: string;
  better: Better;
  value: number;
  /** Which repetition this came from; ratios pair figures of the same run. */
  run: number;
}

export interface Target {
  /** The target as the issue words it. */
  label: string;
  /** The row judged: its median is compared with the threshold. */
  metric: string;
  contender: Contender;
  /** `<=` for a target worded "at most". */
  op: '>=' | '<' | '<=';
  threshold: number;
}

export interface ProbeOptions {
  /** The probe process is killed (whole process group) after this long. */
  timeoutMs?: number;
}

export interface BenchContext {
  readonly scenario: string;
  /** Repetitions to take the median over (from --runs, or the scenario's own default). */
  readonly runs: number;
  /** --quick: smaller inputs and fewer runs, for a smoke test of the harness itself. */
  readonly quick: boolean;
  readonly tmuxAvailable: boolean;
  /** A fresh directory for this scenario's scratch files; removed afterwards. */
  readonly tmpDir: string;
  /** Progress to stderr; stdout carries only the report. */
  log(line: string): void;
  record(sample: Sample): void;
  target(target: Target): void;
  /** A line printed under the scenario's table and kept in the JSON (caveats, labels such as "MCP not ready"). */
  note(text: string): void;
  /** Runs `bench/probes/<name>.ts` in a fresh Node process and returns what it returned. */
  probe<R>(name: string, args: unknown, options?: ProbeOptions): Promise<R>;
  /** A generated data file (cached across bench runs). */
  dataset(name: DatasetName, bytes: number): Promise<Dataset>;
}

export interface Scenario {
  name: string;
  description: string;
  /** Default repetitions when --runs is not given. */
  defaultRuns: number;
  /**
   * What one run takes on the reference machine (2 cores, the median of five
   * full suites): the full suite plans its runs with it to stay within its
   * 10 minutes on a slower machine (time-budget.ts).
   */
  secondsPerRun: number;
  /** Data this scenario needs, so the runner can generate every file in one parallel batch up front. */
  datasets?(quick: boolean): { name: DatasetName; bytes: number }[];
  run(ctx: BenchContext): Promise<void>;
}
