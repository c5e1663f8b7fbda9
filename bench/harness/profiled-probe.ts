/**
 * A probe run for `pnpm bench --profile`: under perf when it works here, with
 * a per-thread, per-stage table of the probe's timed window written beside
 * perf's data (perf-profile.ts); otherwise under V8's --cpu-prof.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { perfAvailable, perfStages, keepPerfMap, renderStages, type ProfiledResult } from './perf-profile.js';
import { runProbe, type ProbeProcessOptions } from './run-probe.js';

let saidNoPerf = false;
let runs = 0;

/** `dir`: where this scenario's profiles go. `report`: hears where the table went (for the scenario's notes). */
export async function profiledProbe<R>(
  name: string,
  args: unknown,
  options: ProbeProcessOptions,
  dir: string,
  log: (line: string) => void,
  report: (path: string) => void,
): Promise<R> {
  if (!perfAvailable()) {
    if (!saidNoPerf) log('perf is not available here (install linux-perf; perf_event_paranoid must allow cpu-clock): --profile writes V8 CPU profiles instead, with no per-stage table');
    saidNoPerf = true;
    return runProbe<R>(name, args, { ...options, cpuProfileDir: join(dir, name) });
  }
  const base = join(dir, `${name}-${++runs}`);
  let pid: number | null = null;
  try {
    const result = await runProbe<R>(name, args, { ...options, perfDataPath: `${base}.perf.data`, onPid: (probePid) => (pid = probePid) });
    const profiled = result as Partial<ProfiledResult>;
    // Probes that time no window of patterm's (the baselines) keep their perf data, for `perf report`, and get no table.
    if (pid === null || typeof profiled.bytes !== 'number' || !profiled.windowUs) return result;
    const table = renderStages(await perfStages(`${base}.perf.data`, pid, profiled.windowUs), profiled.bytes);
    writeFileSync(`${base}.stages.txt`, `${table}\n`);
    log(`${name}: CPU per MiB by thread and stage, in the timed window (${base}.stages.txt):\n${table}`);
    report(`${base}.stages.txt`);
    return result;
  } finally {
    if (pid !== null) keepPerfMap(pid, base);
  }
}
