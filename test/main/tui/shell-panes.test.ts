/**
 * Shell panes in the real TUI (tmux): a shell preset starts one from the
 * palette, its tree entry shows how its last command ended and whether one
 * runs, and the history reader jumps between its commands with [ and ].
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../helpers/scratch-dir.js';
import { computeLayout } from '../../../src/renderer/layout.js';
import { TmuxPatterm } from './tmux-harness.js';

const { main } = computeLayout(120, 40);

function home(): string {
  const dir = scratchDir('patterm-shell-home-');
  writeFileSync(join(dir, '.bashrc'), "PS1='$ '\nHISTFILE=/dev/null\n");
  writeFileSync(join(dir, '.bash_profile'), '. ~/.bashrc\n');
  return dir;
}

test("a shell preset from the palette; the tree shows the last command's status and a running one; [ and ] jump between commands", async () => {
  const patterm = TmuxPatterm.start({ shellPresets: { 'test-bash': { name: 'test bash', shell: 'bash', env: { HOME: home() } } } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('test bash', 'Start shell: test bash');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '$', 'the prompt');
    const tree = (lines: string[]) => lines.find((line) => line.includes('▶ test-bash-1')) ?? '';
    const command = async (typed: string, treeShows: string) => {
      patterm.type(typed);
      patterm.keys('Enter');
      await patterm.waitFor((lines) => tree(lines).includes(`▶ test-bash-1 ${treeShows}`), `"${treeShows}" after ${typed}`);
    };
    await command('false', '✗ 1');
    await command('true', '✓');
    await command('sleep 30', '⋯');
    patterm.keys('C-c');
    await patterm.waitFor((lines) => tree(lines).includes('▶ test-bash-1 ✗ 130'), 'the interrupted command: 130');

    for (const name of ['alpha', 'beta', 'gamma']) {
      patterm.type(`echo ${name}; seq 1 50`);
      patterm.keys('Enter');
      await patterm.waitFor((lines) => tree(lines).includes('▶ test-bash-1 ✓') && patterm.mainArea(lines).at(-1) === '$', `${name} done`);
    }
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    await patterm.waitFor((lines) => /↑ \d+ lines? back/.test(lines[main.y] ?? ''), 'the history reader');
    const second = (lines: string[]) => patterm.mainArea(lines)[1];
    patterm.type('[');
    await patterm.waitFor((lines) => second(lines) === '$ echo gamma; seq 1 50', 'the last command\'s start');
    patterm.type('[');
    await patterm.waitFor((lines) => second(lines) === '$ echo beta; seq 1 50', 'the one before');
    patterm.type(']');
    await patterm.waitFor((lines) => second(lines) === '$ echo gamma; seq 1 50', 'the next one again');
    patterm.keys('Escape');
    await patterm.waitFor((lines) => !/↑ \d+ lines? back/.test(lines[main.y] ?? ''), 'the live screen');
    assert.ok(true);
  } finally {
    patterm.stop();
  }
});
