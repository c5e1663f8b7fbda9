/**
 * However patterm ends, the host terminal comes back (cooked mode, main
 * screen, cursor visible, mouse reporting off) and no process it started is
 * left: Quit from the palette, SIGTERM, SIGHUP, and a crash on either thread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TmuxPatterm, BASH_PRESET, FAULT_INJECTING_PATTERM } from './tmux-harness.js';

const PRESETS = {
  bash: BASH_PRESET,
  // A child that ignores SIGTERM: only the SIGKILL after the grace window ends it.
  stubborn: { name: 'stubborn', argv: ['sh', '-c', 'trap "" TERM; echo stubborn-up; while :; do sleep 1; done'] },
};

/** A session with bash and a SIGTERM-ignoring child, both running. */
async function withRunningPanes(options: { env?: Record<string, string>; bin?: string }, finish: (patterm: TmuxPatterm) => Promise<void>): Promise<void> {
  const patterm = TmuxPatterm.start({ processPresets: PRESETS, ...options });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.spawnBash();
    await patterm.runPalette('in bash stubborn', 'Run process in bash: stubborn');
    await patterm.waitFor((l) => patterm.mainArea(l).includes('stubborn-up'), 'the stubborn child');
    assert.ok(patterm.markedProcesses().length >= 4, 'patterm, bash and the child are running');
    await finish(patterm);
  } finally {
    patterm.stop();
  }
}

test('Quit from the palette ends every pane, even one that ignores SIGTERM, and restores the terminal', () =>
  withRunningPanes({}, async (patterm) => {
    await patterm.runPalette('quit', 'Quit');
    await patterm.expectExitAndRestore(0);
  }));

test('SIGTERM: orderly shutdown, exit code 143, terminal restored, nothing left', () =>
  withRunningPanes({}, async (patterm) => {
    process.kill(patterm.pattermPid()!, 'SIGTERM');
    await patterm.expectExitAndRestore(143);
  }));

test('SIGHUP (the terminal went away): exit code 129, nothing left', () =>
  withRunningPanes({}, async (patterm) => {
    process.kill(patterm.pattermPid()!, 'SIGHUP');
    await patterm.expectExitAndRestore(129);
  }));

test('a crash on the main thread restores the terminal, reports the error and leaves nothing behind', () =>
  withRunningPanes({ bin: FAULT_INJECTING_PATTERM, env: { PATTERM_FAULT_TARGET: 'main' } }, async (patterm) => {
    process.kill(patterm.pattermPid()!, 'SIGUSR2');
    await patterm.expectExitAndRestore(1);
    assert.ok(patterm.screen().some((line) => line.includes('patterm: crashed: Error: simulated main thread crash')));
  }));

test('a crash on the renderer thread restores the terminal, reports the error and leaves nothing behind', () =>
  withRunningPanes({ bin: FAULT_INJECTING_PATTERM, env: { PATTERM_FAULT_TARGET: 'renderer' } }, async (patterm) => {
    process.kill(patterm.pattermPid()!, 'SIGUSR2');
    await patterm.expectExitAndRestore(1);
    assert.ok(patterm.screen().some((line) => line.includes('patterm: crashed: Error: simulated renderer thread crash')));
  }));
