/**
 * Runs one probe in its own Node process (see probe-runner.ts) and returns its
 * result. The process leads its own process group, so a timeout or a leftover
 * handle is cleaned up by signalling the group, never by name.
 */
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { perfRecordArgv } from './perf-profile.js';

const RUNNER = new URL('./probe-runner.js', import.meta.url);
/** A probe that sent its result but keeps handles open is ended after this long. */
const EXIT_GRACE_MS = 3000;

const DEFAULT_TIMEOUT_MS = 120_000;

export interface ProbeProcessOptions {
  timeoutMs?: number;
  /** When set, the probe runs under --cpu-prof and writes its profiles here (main thread and workers). */
  cpuProfileDir?: string;
  /**
   * When set, the probe runs under `perf record` (perf-profile.ts) writing
   * here, and the promise settles once perf has written it all; `onPid`
   * hears the probe's own pid, which the samples are told apart by.
   */
  perfDataPath?: string;
  onPid?: (pid: number) => void;
}

export class ProbeError extends Error {
  override readonly name = 'ProbeError';
}

export function runProbe<R>(probe: string, args: unknown, options: ProbeProcessOptions = {}): Promise<R> {
  const execArgv: string[] = [];
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
  }
  const perf = options.perfDataPath ? perfRecordArgv(options.perfDataPath) : null;
  if (options.perfDataPath) mkdirSync(dirname(options.perfDataPath), { recursive: true });
  const child = fork(RUNNER, [probe, JSON.stringify(args ?? null)], {
    // Under perf, the probe is perf's child: `perf record ... -- node --perf-basic-prof runner args`.
    // --perf-basic-prof also turns on V8's log, which would leave a file per isolate in the working directory.
    ...(perf ? { execPath: perf[0], execArgv: [...perf.slice(1), process.execPath, '--perf-basic-prof', '--logfile=/dev/null', ...execArgv] } : { execArgv }),
    detached: true,
    // Probe logs go to our stderr: stdout is the bench report.
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const killProcess = (pid: number | undefined) => {
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    let exitTimer: ReturnType<typeof setTimeout> | undefined;
    const timeout = setTimeout(() => {
      settle(() => reject(new ProbeError(`probe ${probe} timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)));
      killGroup('SIGKILL');
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      finish();
    };
    let answer: (() => void) | null = null;
    child.on('message', (message: { ok: boolean; result?: R; error?: string; pid?: number }) => {
      if (message.pid !== undefined) options.onPid?.(message.pid);
      answer = message.ok ? () => resolve(message.result as R) : () => reject(new ProbeError(`probe ${probe} failed: ${message.error}`));
      // Under perf the answer waits for perf to have written its data, which it does once the probe has exited.
      if (!perf) settle(answer);
      // Probes shut their coordinators down before returning; whatever handle is still open gets SIGKILL:
      // the group's, or under perf the probe's alone, so that perf lives to write what it recorded.
      exitTimer = setTimeout(() => (perf ? killProcess(message.pid) : killGroup('SIGKILL')), EXIT_GRACE_MS);
      exitTimer.unref();
    });
    child.on('exit', (code, signal) => {
      if (exitTimer) clearTimeout(exitTimer);
      settle(answer ?? (() => reject(new ProbeError(`probe ${probe} exited (${signal ?? code}) without a result`))));
    });
    child.on('error', (error) => settle(() => reject(error)));
  });
}
