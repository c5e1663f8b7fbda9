/**
 * Terminal fidelity and sizing, in a real terminal (tmux): every PTY follows
 * the host terminal's size, and vim inside a pane shows exactly what vim run
 * directly in a terminal of the pane's size shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { computeLayout, paneSizeFor } from '../../../src/renderer/layout.js';
import { textWidth } from '../../../src/renderer/text-width.js';
import { TmuxPatterm, BASH_PRESET, SCREEN_TIMEOUT_MS, sleep, styledLines, describeCells } from './tmux-harness.js';

/** vim with no user config, so both runs start from the same state. */
// background=dark: vim otherwise picks colours from how the terminal answers its background query.
const VIM_ARGV = ['vim', '-u', 'NONE', '-i', 'NONE', '-N', '-n', '-c', 'set background=dark number ruler laststatus=2 listchars=tab:>-,trail:~ list', 'sample.txt'];

const SAMPLE = [
  'patterm fidelity sample',
  '\tindented with a tab',
  'wide: 漢字かな and accents: é à ü',
  'x'.repeat(150) + ' (wraps)',
  'trailing spaces   ',
  ...Array.from({ length: 60 }, (_, i) => `line ${i + 5}`),
].join('\n');

/** vim run straight in its own tmux, at the pane's size: the reference screen. */
class DirectVim {
  readonly socket = `patterm-vim-${process.pid}-${randomBytes(4).toString('hex')}`;

  constructor(cwd: string, cols: number, rows: number) {
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-x', String(cols), '-y', String(rows), '-c', cwd, '-e', 'TERM=xterm-256color', ...VIM_ARGV);
    this.tmux('set-option', '-g', 'escape-time', '0');
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  screen(): string[] {
    return this.tmux('capture-pane', '-p').replace(/\n$/, '').split('\n').map((line) => line.trimEnd());
  }

  styledScreen(): string[] {
    return styledLines(this.tmux('capture-pane', '-p', '-e').replace(/\n$/, '').split('\n')).map(describeCells);
  }

  cursor(): string {
    return this.tmux('display-message', '-p', '#{cursor_x},#{cursor_y}').trim();
  }

  stop(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }
}

/** Polls until both screens are equal (each program redraws in its own time); fails with a diff. */
async function assertSameScreen(patterm: TmuxPatterm, direct: DirectVim, what: string): Promise<void> {
  const deadline = Date.now() + SCREEN_TIMEOUT_MS;
  let ours: string[] = [];
  let theirs: string[] = [];
  while (Date.now() < deadline) {
    ours = patterm.mainArea();
    theirs = direct.screen();
    const { main } = computeLayout(Number(patterm.format('#{window_width}')), Number(patterm.format('#{window_height}')));
    const cursor = `${Number(patterm.format('#{cursor_x}')) - main.x},${Number(patterm.format('#{cursor_y}')) - main.y}`;
    if (ours.join('\n') === theirs.join('\n') && cursor === direct.cursor()) {
      // Same text and cursor: the colours and attributes must match too.
      const styled = patterm.styledMainArea();
      const reference = direct.styledScreen();
      if (styled.join('\n') === reference.join('\n')) return;
      ours = styled;
      theirs = reference;
    }
    await sleep(50);
  }
  const diff = theirs.map((line, i) => (line === ours[i] ? `  ${line}` : `- ${line}\n+ ${ours[i]}`)).join('\n');
  assert.fail(`${what}: vim in patterm differs from vim in a plain terminal (- direct, + patterm):\n${diff}`);
}

test('resizing the host terminal resizes the pane: stty size follows', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('bash', 'Run process: bash');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '$', 'the prompt');
    for (const [cols, rows] of [
      [120, 40],
      [100, 30],
      [150, 45],
      [50, 20], // narrow enough that the rail hides and the pane takes the width
    ]) {
      patterm.resize(cols, rows);
      const expected = paneSizeFor(cols, rows);
      // Typing before patterm has even seen SIGWINCH would race the resize; its redraw at the new width proves it has.
      await patterm.waitFor((lines) => textWidth(lines[lines.length - 1].trimEnd()) === cols - 1, `the redraw at ${cols} columns`);
      patterm.keys('C-l');
      patterm.type('stty size');
      patterm.keys('Enter');
      await patterm.waitFor((lines) => patterm.mainArea(lines).includes(`${expected.rows} ${expected.cols}`), `stty size ${expected.rows} ${expected.cols} at ${cols}x${rows}`);
    }
  } finally {
    patterm.stop();
  }
});

test('vim in a pane matches vim in a plain terminal of the same size, through edits, scrolling and a resize', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { vim: { name: 'vim', argv: VIM_ARGV } } });
  writeFileSync(join(patterm.dirs.project, 'sample.txt'), SAMPLE);
  let size = paneSizeFor(120, 40);
  const direct = new DirectVim(patterm.dirs.project, size.cols, size.rows);
  const both = (keys: string[], literal = false) => {
    for (const target of [patterm, direct]) target.tmux('send-keys', ...(literal ? ['-l'] : []), ...keys);
  };
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('vim', 'Run process: vim');
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes('patterm fidelity sample')), 'vim to show the file');
    await assertSameScreen(patterm, direct, 'the opened file');

    both(['jjjw']);
    await assertSameScreen(patterm, direct, 'after moving');
    both(['o']);
    both(['typed in insert mode: ü漢'], true);
    both(['Escape']);
    await sleep(100); // let both vims see a lone Escape before the next key
    both(['C-f']);
    await assertSameScreen(patterm, direct, 'after an insert and a page down');
    both([':split', 'Enter']);
    await assertSameScreen(patterm, direct, 'with a split window');

    patterm.resize(100, 30);
    await patterm.waitFor((lines) => textWidth(lines[lines.length - 1].trimEnd()) === 99, 'the redraw at 100 columns');
    size = paneSizeFor(100, 30);
    direct.tmux('resize-window', '-x', String(size.cols), '-y', String(size.rows));
    await assertSameScreen(patterm, direct, 'after a resize');
  } finally {
    direct.stop();
    patterm.stop();
  }
});
