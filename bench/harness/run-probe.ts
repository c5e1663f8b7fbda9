/**
 * Runs one probe in its own Node process (see probe-runner.ts) and returns its
 * result. The process leads its own process group, so a timeout or a leftover
 * handle is cleaned up by signalling the group, never by name.
 */
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const RUNNER = new URL('./probe-runner.js', import.meta.url);
/** A probe that sent its result but keeps handles open is ended after this long. */
const EXIT_GRACE_MS = 3000;
const DEFAULT_TIMEOUT_MS = 120_000;

export interface ProbeProcessOptions {
  timeoutMs?: number;
  /** When set, the probe runs under --cpu-prof and writes its profiles here (main thread and workers). */
  cpuProfileDir?: string;
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
  const child = fork(RUNNER, [probe, JSON.stringify(args ?? null)], {
    execArgv,
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
    child.on('message', (message: { ok: boolean; result?: R; error?: string }) => {
      if (message.ok) settle(() => resolve(message.result as R));
      else settle(() => reject(new ProbeError(`probe ${probe} failed: ${message.error}`)));
      // Probes shut their coordinators down before returning; whatever handle is still open gets the group SIGKILL.
      exitTimer = setTimeout(() => killGroup('SIGKILL'), EXIT_GRACE_MS);
      exitTimer.unref();
    });
    child.on('exit', (code, signal) => {
      if (exitTimer) clearTimeout(exitTimer);
      settle(() => reject(new ProbeError(`probe ${probe} exited (${signal ?? code}) without a result`)));
    });
    child.on('error', (error) => settle(() => reject(error)));
  });
}
