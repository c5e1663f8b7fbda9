/**
 * `pnpm bench [name...] [--runs N] [--quick] [--profile] [--cpu-prof] [--list]`
 *
 * Runs every scenario in bench/scenarios (or the named ones), prints one table
 * per scenario and the target verdicts on stdout, and writes the JSON report to
 * bench/results/<timestamp>.json. Progress goes to stderr.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatasets, key, type Dataset } from './harness/datasets.js';
import { machineInfo } from './harness/machine-info.js';
import { profiledProbe } from './harness/profiled-probe.js';
import { buildRows, judge, renderScenario, renderSummary, writeJsonReport, type ScenarioReport } from './harness/report.js';
import { runProbe } from './harness/run-probe.js';
import { TimeBudget } from './harness/time-budget.js';
import type { BenchContext, ProbeOptions, Sample, Scenario, Target } from './harness/scenario.js';
import { tmuxInstalled } from './harness/tmux-server.js';

const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));
/** Source-relative, so results land in the checkout's bench/results (git-ignored), not in dist. */
const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));
/** Issue order; scenarios added later (e.g. TUI ones) run after these, alphabetically. */
const PREFERRED_ORDER = [
  'flood-ascii', 'flood-sgr', 'flood-unicode', 'scroll-regions', 'cursor-motion',
  'fan-in', 'ctrl-c-flood', 'many-agents', 'flood-memory', 'mcp', 'paste', 'cpu-pool',
];

interface Options {
  names: string[];
  runs: number | null;
  quick: boolean;
  profile: boolean;
  cpuProf: boolean;
  list: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { names: [], runs: null, quick: false, profile: false, cpuProf: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') options.runs = Math.max(1, Number(argv[++i]));
    else if (arg.startsWith('--runs=')) options.runs = Math.max(1, Number(arg.slice(7)));
    else if (arg === '--quick') options.quick = true;
    else if (arg === '--profile') options.profile = true;
    else if (arg === '--cpu-prof') options.cpuProf = true;
    else if (arg === '--list') options.list = true;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}; expected --runs N, --quick, --profile, --cpu-prof, --list`);
    else options.names.push(arg);
  }
  if (options.runs !== null && !Number.isFinite(options.runs)) throw new Error('--runs needs a number');
  return options;
}

async function loadScenarios(): Promise<Scenario[]> {
  const files = readdirSync(SCENARIO_DIR).filter((file) => file.endsWith('.js'));
  const scenarios = await Promise.all(files.map(async (file) => ((await import(join(SCENARIO_DIR, file))) as { default: Scenario }).default));
  const rank = (name: string) => {
    const index = PREFERRED_ORDER.indexOf(name);
    return index === -1 ? PREFERRED_ORDER.length : index;
  };
  return scenarios.filter(Boolean).sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function requestedRuns(scenario: Scenario, options: Options): number {
  return options.runs ?? (options.quick ? Math.min(2, scenario.defaultRuns) : scenario.defaultRuns);
}

async function runScenario(scenario: Scenario, runs: number, options: Options, datasets: Map<string, Dataset>, profileRoot: string | null): Promise<ScenarioReport> {
  const samples: Sample[] = [];
  const targets: Target[] = [];
  const notes: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), `patterm-bench-${scenario.name}-`));
  const ctx: BenchContext = {
    scenario: scenario.name,
    runs,
    quick: options.quick,
    tmuxAvailable: tmuxInstalled(),
    tmpDir: scratch,
    log: (line) => log(`${scenario.name}: ${line}`),
    record: (sample) => samples.push(sample),
    target: (target) => targets.push(target),
    note: (text) => notes.push(text),
    probe: <R>(name: string, args: unknown, probeOptions?: ProbeOptions): Promise<R> => {
      if (!profileRoot) return runProbe<R>(name, args, probeOptions);
      const dir = join(profileRoot, scenario.name);
      if (options.cpuProf) return runProbe<R>(name, args, { ...probeOptions, cpuProfileDir: join(dir, name) });
      return profiledProbe<R>(name, args, probeOptions ?? {}, dir, ctx.log, (path) => notes.push(`CPU by thread and stage of ${name}: ${path}`));
    },
    dataset: async (name, bytes) => {
      const found = datasets.get(key(name, bytes)) ?? (await ensureDatasets([{ name, bytes }], log)).get(key(name, bytes));
      if (!found) throw new Error(`dataset ${name} (${bytes} bytes) could not be generated`);
      return found;
    },
  };
  const started = performance.now();
  let error: string | undefined;
  try {
    await scenario.run(ctx);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    log(`${scenario.name} failed: ${caught instanceof Error ? caught.stack : caught}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const rows = buildRows(samples);
  return { name: scenario.name, description: scenario.description, runs, seconds: (performance.now() - started) / 1000, rows, targets: judge(targets, rows), notes, error };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const all = await loadScenarios();
  if (options.list) {
    for (const scenario of all) process.stdout.write(`${scenario.name.padEnd(16)} ${scenario.description}\n`);
    return;
  }
  const unknown = options.names.filter((name) => !all.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${all.map((s) => s.name).join(', ')}`);
  const selected = options.names.length > 0 ? all.filter((scenario) => options.names.includes(scenario.name)) : all;

  const startedAt = new Date();
  const machine = machineInfo();
  process.stdout.write(
    `# patterm bench ${startedAt.toISOString()}\n` +
      `machine: ${machine.cpus} x ${machine.cpuModel}, ${machine.totalMemoryMiB} MiB, ${machine.platform} ${machine.kernel}, node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}\n` +
      `versions: ${Object.entries(machine.versions).map(([name, version]) => `${name} ${version}`).join(', ')}; commit ${machine.gitCommit}\n`,
  );
  const wanted = selected.flatMap((scenario) => scenario.datasets?.(options.quick) ?? []);
  const datasets = await ensureDatasets(wanted, log);
  const profileRoot = options.profile || options.cpuProf ? join(RESULTS_DIR, 'profiles', startedAt.toISOString().replace(/[:.]/g, '-')) : null;

  const reports: ScenarioReport[] = [];
  const suiteStarted = performance.now();
  // Only the whole suite has a time limit; named scenarios, --runs and --quick run as asked.
  const budget = options.names.length === 0 && options.runs === null && !options.quick ? new TimeBudget(selected) : null;
  for (const [index, scenario] of selected.entries()) {
    // performance.now() counts from process start, so dataset generation is in the elapsed time.
    const runs = budget ? budget.runsFor(index, performance.now() / 1000) : requestedRuns(scenario, options);
    log(`running ${scenario.name}${runs < scenario.defaultRuns && budget ? ` (${runs} of ${scenario.defaultRuns} runs, to finish within the suite's time budget)` : ''}`);
    const report = await runScenario(scenario, runs, options, datasets, profileRoot);
    if (budget && runs < scenario.defaultRuns) {
      report.notes.push(`${runs} of ${scenario.defaultRuns} runs: the suite ran ${budget.pace.toFixed(2)}x its time estimates, and a full \`pnpm bench\` must finish within 10 minutes (bench/harness/time-budget.ts)`);
    }
    budget?.finished(index, report.runs, report.seconds);
    reports.push(report);
    process.stdout.write(`${renderScenario(report)}\n`);
  }
  process.stdout.write(`${renderSummary(reports)}\n`);
  const path = writeJsonReport(RESULTS_DIR, startedAt, machine, reports, process.argv.slice(2));
  const minutes = (performance.now() - suiteStarted) / 60000;
  const overall = performance.now() / 60000; // from process start: dataset generation included
  process.stdout.write(`\ntotal ${minutes.toFixed(1)} min (${overall.toFixed(1)} min with start-up and datasets), load at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}; report: ${path}\n`);
  if (profileRoot) process.stdout.write(`cpu profiles: ${profileRoot}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
