/**
 * The TUI as a person meets it, in a real terminal (tmux): the empty canvas,
 * the palette, spawning a bash preset, typing, Ctrl-K Ctrl-K, and quitting
 * cleanly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, TmuxPatterm, BASH_PRESET } from './tmux-harness.js';

const HINT = 'Press Ctrl-K to spawn an agent or process';

async function withPatterm(run: (p: TmuxPatterm) => Promise<void>, options = {}): Promise<void> {
  const patterm = TmuxPatterm.start(options);
  try {
    await run(patterm);
  } finally {
    patterm.stop();
  }
}

/** Spawns the bash preset from the palette and waits for its prompt. */
async function spawnBash(patterm: TmuxPatterm): Promise<void> {
  await patterm.runPalette('bash', 'Run process: bash');
  await patterm.waitFor((lines) => lines[1]?.startsWith('$'), 'the bash prompt in the main area');
}

test('the empty state is a blank canvas with a centred hint and the palette hint in the status line', () =>
  withPatterm(async (patterm) => {
    const lines = await patterm.waitFor((l) => l.some((line) => line.includes(HINT)), 'the empty-state hint');
    const row = lines.findIndex((line) => line.includes(HINT));
    // Centred: vertically in the main area, horizontally within it (the rail starts at column 90 of 120).
    assert.ok(Math.abs(row - 20) <= 1, `hint on row ${row}`);
    const left = lines[row].indexOf(HINT);
    const right = 89 - (left + HINT.length);
    assert.ok(Math.abs(left - right) <= 1, `hint at column ${left}, ${right} columns from the divider`);
    assert.match(lines[lines.length - 1], /Ctrl-K command palette\s*$/);
    // No default session: no tab, no tree, nothing else on screen.
    assert.doesNotMatch(lines.join('\n'), /bash|Session tree|Scratchpads|▶/);
    assert.equal(lines.filter((line) => /[^\s│+]/.test(line)).length, 2, 'only the hint and the status line have text');
  }));

test('the palette filters fuzzily, spawns the bash preset, and typing echoes in the pane', () =>
  withPatterm(
    async (patterm) => {
      await patterm.waitFor(new RegExp(HINT), 'the empty state');
      patterm.keys('C-k');
      const open = await patterm.waitFor(/Command palette/, 'the palette');
      assert.ok(open.some((line) => line.includes('Run process: bash')));
      assert.ok(open.some((line) => line.includes('Run process: top')));
      // "rpb" is not a substring of anything; only a fuzzy match finds "Run process: bash".
      patterm.type('rpb');
      const filtered = await patterm.waitFor((lines) => !lines.some((line) => line.includes('Run process: top')), 'the filter to drop top');
      assert.ok(filtered.some((line) => line.includes('Run process: bash')));
      patterm.keys('Enter');
      await patterm.waitFor((lines) => lines[1]?.startsWith('$'), 'the bash prompt');
      const withTab = patterm.screen();
      assert.match(withTab[0], /^ bash /, 'a tab for the new session');
      assert.ok(withTab.some((line) => line.includes('▶ bash')), 'the session tree shows the root');
      assert.match(withTab[withTab.length - 1], /you have control/);

      patterm.type('echo hel""lo-world');
      patterm.keys('Enter');
      const echoed = await patterm.waitFor((lines) => lines.some((line) => line.startsWith('hello-world')), 'the echo');
      assert.ok(echoed.some((line) => line.startsWith('$ echo hel""lo-world')), 'the typed line, as typed');
    },
    { processPresets: { bash: BASH_PRESET, top: { name: 'top', argv: ['top'] } } },
  ));

test('Ctrl-K Ctrl-K sends a literal Ctrl-K to the program (readline kill-line)', () =>
  withPatterm(async (patterm) => {
    await patterm.waitFor(new RegExp(HINT), 'the empty state');
    await patterm.runPalette('bash', 'Run process: bash');
    await patterm.waitFor((lines) => lines[1]?.startsWith('$'), 'the bash prompt');
    patterm.type('echo keep-DROPPED');
    for (let i = 0; i < 'DROPPED'.length; i++) patterm.keys('Left');
    patterm.keys('C-k');
    await patterm.waitFor(/Command palette/, 'the palette after the first Ctrl-K');
    patterm.keys('C-k');
    await patterm.waitFor((lines) => !lines.some((line) => line.includes('Command palette')), 'the palette to close');
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l).includes('keep-'), 'bash to print what was left of the line');
    assert.ok(!patterm.mainArea().some((line) => line.startsWith('keep-DROPPED')), 'readline killed the rest of the line');
  }));

test('Ctrl-D in a pane goes to the program; on the empty canvas it quits, leaving no process and the terminal restored', () =>
  withPatterm(async (patterm) => {
    await patterm.waitFor(new RegExp(HINT), 'the empty state');
    const pattermPids = await eventually(() => (patterm.markedProcesses().length >= 2 ? patterm.markedProcesses() : null), 'patterm to start');
    await spawnBash(patterm);
    const withBash = patterm.markedProcesses().length;
    assert.ok(withBash > pattermPids!.length, 'bash is running under patterm');

    patterm.keys('C-d'); // bash reads EOF and exits: the pane shows it exited
    await patterm.waitFor(/bash exited 0 · Ctrl-D closes it/, 'the exited pane');
    assert.ok(patterm.screen().some((line) => line.includes('▶ bash ✓')), 'the tree marks the clean exit');
    patterm.keys('C-d'); // closes the exited pane: back to the empty canvas
    await patterm.waitFor(new RegExp(HINT), 'the empty canvas again');
    patterm.keys('C-d'); // quits
    await patterm.expectExitAndRestore(0);
  }));

test('an exited pane keeps its last lines in view when the window shrinks', () =>
  withPatterm(
    async (patterm) => {
      await patterm.waitFor(new RegExp(HINT), 'the empty state');
      await spawnBash(patterm);
      patterm.type('seq 1 60; echo the-result-line; exit');
      patterm.keys('Enter');
      await patterm.waitFor(/bash exited 0 · Ctrl-D closes it/, 'the exited pane');
      // The exited pane is not resized (its process is gone): its screen keeps the old size.
      patterm.resize(100, 20);
      const small = await patterm.waitFor((lines) => lines.length === 20 && patterm.mainArea(lines).includes('the-result-line'), 'the last lines in the smaller window');
      const area = patterm.mainArea(small);
      assert.equal(area.filter((line) => line !== '').at(-1), 'exit', 'the last line the pane wrote is the last one shown');
      assert.ok(area.includes('60'), 'with the lines just above it');
    },
    { processPresets: { bash: BASH_PRESET } },
  ));
