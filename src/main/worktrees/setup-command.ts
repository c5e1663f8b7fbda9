/**
 * Runs config.json's `worktrees.setup` in a new worktree before its child
 * starts (`pnpm install --offline`, copying a database, …). Its output is kept
 * so that a failure can be shown whole; a setup that outlives its timeout is
 * ended with its whole process tree.
 */
import { spawn } from 'node:child_process';
import { DEFAULT_KILL_GRACE_MS, INSTANCE_MARKER_VAR, killPaneTree, PANE_MARKER_VAR } from '../../node/process-reaper.js';
import { ignoreError } from '../../node/patterm-log.js';
import { withoutRepositoryVariables } from './git.js';
import { declareOwnChild } from '../../node/own-children.js';

/** What a failed setup shows: its last lines, where the error usually is. */
const MAX_OUTPUT_CHARS = 16 * 1024;

export interface SetupRun {
  command: string;
  cwd: string;
  /** PATTERM_WORKTREE, PATTERM_CHECKOUT, PATTERM_PORT. */
  env: Record<string, string>;
  timeoutMs: number;
  /** The patterm run, so its orphan watchdog ends a setup that outlives patterm. */
  instanceId: string;
  /** Names the setup's processes (the pane marker of an imaginary pane "setup-<name>"). */
  label: string;
}

export interface SetupOutcome {
  ok: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** stdout and stderr interleaved, its last MAX_OUTPUT_CHARS. */
  output: string;
  durationMs: number;
}

export function runSetup(run: SetupRun): Promise<SetupOutcome> {
  const started = performance.now();
  const marker = `${run.instanceId}/${run.label}`;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', run.command], {
      cwd: run.cwd,
      env: { ...withoutRepositoryVariables(), ...run.env, [INSTANCE_MARKER_VAR]: run.instanceId, [PANE_MARKER_VAR]: marker },
      // Nobody can answer a prompt: a setup that asks gets end-of-file.
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    declareOwnChild(child);
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 2 * MAX_OUTPUT_CHARS) output = output.slice(-MAX_OUTPUT_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void killPaneTree(child.pid ?? null, marker, 'SIGTERM', DEFAULT_KILL_GRACE_MS).catch(ignoreError(`ending the worktree setup ${run.label}`));
    }, run.timeoutMs);
    const finish = (exitCode: number | null, signal: string | null, spawnError?: Error) => {
      clearTimeout(timer);
      if (spawnError) output += `${output && !output.endsWith('\n') ? '\n' : ''}could not start sh: ${spawnError.message}`;
      resolve({ ok: !spawnError && !timedOut && exitCode === 0, exitCode, signal, timedOut, output: output.slice(-MAX_OUTPUT_CHARS), durationMs: performance.now() - started });
    };
    child.on('error', (error) => finish(null, null, error));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

export function describeSetupFailure(command: string, outcome: SetupOutcome, timeoutMs: number): string {
  const how = outcome.timedOut
    ? `did not finish within ${Math.round(timeoutMs / 1000)} s (worktrees.setupTimeoutSeconds) and was stopped`
    : outcome.signal
      ? `was ended by ${outcome.signal}`
      : `exited with code ${outcome.exitCode}`;
  const shown = outcome.output.trim();
  return `the worktree setup command ${JSON.stringify(command)} ${how}${shown ? `; its output:\n${shown}` : ' and printed nothing'}`;
}
