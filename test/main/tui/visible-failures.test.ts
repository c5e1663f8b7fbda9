/**
 * Failures are visible: a TUI run writes its log by default, and an error
 * that costs the user something (here a failed write of their keys to a
 * pane's PTY) is logged there at warn, counted in the status line, and
 * readable from the palette in the history reader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TmuxPatterm, FAULT_INJECTING_PATTERM, eventually } from './tmux-harness.js';

test('a failed write on the input path is counted in the status line and logged in the default log file', async () => {
  const patterm = TmuxPatterm.start({
    bin: FAULT_INJECTING_PATTERM,
    // PATTERM_LOG empty: the harness's own log is off, so patterm writes its default run log.
    env: { PATTERM_LOG: '', PATTERM_FAULT_TARGET: 'renderer', PATTERM_FAULT: 'input-error' },
  });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    const [runLog] = (await eventually(() => (patterm.runLogs().length === 1 ? patterm.runLogs() : null), 'the run log'))!;
    assert.match(readFileSync(runLog, 'utf8'), / info \[thread 0\] patterm \S+ started \(pid \d+/);
    await patterm.spawnBash();
    const statusLine = () => patterm.screen().at(-1) ?? '';
    assert.doesNotMatch(statusLine(), /warning/);

    process.kill(patterm.pattermPid()!, 'SIGUSR2');
    await eventually(() => readFileSync(runLog, 'utf8').includes('test fault armed: input-error'), 'the fault to be armed');
    patterm.type('echo after-$((6*7))');
    patterm.keys('Enter');
    // The keys that met the failure are not lost: they go the slow way, through the coordinator.
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('after-42'), 'the command typed across the failure to run');
    await patterm.waitFor((lines) => /⚠ 1 warning /.test(lines.at(-1) ?? ''), 'the warning in the status line');

    const text = readFileSync(runLog, 'utf8');
    assert.match(text, / warn \[thread \d+\] writing input to pane \S+'s PTY master \(fd \d+\); this writer stops, and its input goes the slow way: EIO: /);
    assert.equal(text.match(/ warn /g)?.length, 1, 'one warning, counted once');

    await patterm.runPalette('log', "Open patterm's log");
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes("this writer stops, and its input goes the slow")), 'the warning in the log reader');
    patterm.keys('Escape');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('after-42'), 'back to the pane');
  } finally {
    patterm.stop();
  }
});
