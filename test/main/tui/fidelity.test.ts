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
import { computeLayout, paneSizeFor } from '../../../src/renderer/layout.js';
import { assertSameScreen, DirectProgram } from './direct-program.js';
import { textWidth } from '../../../src/renderer/text-width.js';
import { TmuxPatterm, sleep, withBashSession } from './tmux-harness.js';

/** vim with no user config, so both runs start from the same state. */
// background=dark: vim otherwise picks colours from how the terminal answers its background query.
const VIM_ARGV = ['vim', '-u', 'NONE', '-i', 'NONE', '-N', '-n', '-c', 'set background=dark number ruler laststatus=2 listchars=tab:>-,trail:~ list', 'sample.txt'];

/**
 * For a change that draws nothing (a cursor move, a mode) to reach the host terminal: generous for a
 * loaded machine, and well inside the programs' trailing `sleep 30`, whose end would redraw anyway.
 */
const NOTHING_DRAWN_TIMEOUT_MS = 15_000;

const SAMPLE = [
  'patterm fidelity sample',
  '\tindented with a tab',
  'wide: 漢字かな and accents: é à ü',
  'x'.repeat(150) + ' (wraps)',
  'trailing spaces   ',
  ...Array.from({ length: 60 }, (_, i) => `line ${i + 5}`),
].join('\n');

test('resizing the host terminal resizes the pane: stty size follows', () =>
  withBashSession(async (patterm) => {
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
  }));

test('vim in a pane matches vim in a plain terminal of the same size, through edits, scrolling and a resize', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { vim: { name: 'vim', argv: VIM_ARGV } } });
  writeFileSync(join(patterm.dirs.project, 'sample.txt'), SAMPLE);
  let size = paneSizeFor(120, 40);
  const direct = new DirectProgram(patterm.dirs.project, size.cols, size.rows, VIM_ARGV);
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
    // vim asked for application cursor keys; the host mirrors it so arrows arrive as vim expects.
    assert.equal(patterm.format('#{keypad_cursor_flag}'), '1', 'DECCKM mirrored on the host');
    both(['Down', 'Down', 'Right']);
    await assertSameScreen(patterm, direct, 'after arrow keys');
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

test('vim on emoji with VS16, a keycap and a skin tone matches vim in a plain terminal, through edits', async () => {
  const argv = ['vim', '-u', 'NONE', '-i', 'NONE', '-N', '-n', 'emoji.txt'];
  const patterm = TmuxPatterm.start({ processPresets: { vim: { name: 'vim', argv } } });
  writeFileSync(join(patterm.dirs.project, 'emoji.txt'), '❤️ heart\n☺️ smile\n1️⃣ keycap\n👍🏽 thumbs\nplain line\n');
  const size = paneSizeFor(120, 40);
  const direct = new DirectProgram(patterm.dirs.project, size.cols, size.rows, argv);
  const both = (keys: string[], literal = false) => [patterm, direct].forEach((target) => target.tmux('send-keys', ...(literal ? ['-l'] : []), ...keys));
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('vim', 'Run process: vim');
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes('plain line')), 'vim to show the file');
    // ghostty-web 0.4.0 drops the VS16 of a keycap (1️⃣ reads as 1⃣); the cells line up all the same.
    const withoutVs16 = (line: string) => line.replace(/\uFE0F/g, '');
    await assertSameScreen(patterm, direct, 'the opened file', 'vim', false, withoutVs16);
    // Edits right after each emoji: vim writes where it believes the emoji ends, which must be where it shows.
    for (const row of [0, 1, 2, 3]) {
      both([row === 0 ? 'g' : 'j', ...(row === 0 ? ['g'] : []), '0', 'l', 'i']);
      both([`<${row}>`], true);
      both(['Escape']);
    }
    await assertSameScreen(patterm, direct, 'after inserting next to each emoji', 'vim', false, withoutVs16);
  } finally {
    direct.stop();
    patterm.stop();
  }
});

test('less in a pane matches less in a plain terminal, paging and searching', async () => {
  const LESS_ARGV = ['less', '-R', 'sample.txt'];
  const patterm = TmuxPatterm.start({ processPresets: { less: { name: 'less', argv: LESS_ARGV, env: { LESSHISTFILE: '-' } } } });
  writeFileSync(join(patterm.dirs.project, 'sample.txt'), SAMPLE);
  const size = paneSizeFor(120, 40);
  const direct = new DirectProgram(patterm.dirs.project, size.cols, size.rows, ['env', 'LESSHISTFILE=-', ...LESS_ARGV]);
  const both = (...keys: string[]) => [patterm, direct].forEach((target) => target.tmux('send-keys', ...keys));
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('less', 'Run process: less');
    await assertSameScreen(patterm, direct, 'the first page', 'less');
    both('Space');
    await assertSameScreen(patterm, direct, 'the second page', 'less');
    both('/line 4', 'Enter');
    await assertSameScreen(patterm, direct, 'after a search', 'less');
  } finally {
    direct.stop();
    patterm.stop();
  }
});

test('mouse: a click in the main area reaches a program that enabled mouse reporting, at its own coordinates', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { vim: { name: 'vim', argv: [...VIM_ARGV.slice(0, -1), '-c', 'set mouse=a ttymouse=sgr', 'sample.txt'] } } });
  writeFileSync(join(patterm.dirs.project, 'sample.txt'), SAMPLE);
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('vim', 'Run process: vim');
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes('patterm fidelity sample')), 'vim');
    // Row 8 of the pane shows buffer line 8 ("line 7" after the gutter); click on its "7".
    const { main } = computeLayout(120, 40);
    const row = patterm.mainArea().findIndex((line) => /^\s+8 line 7$/.test(line));
    assert.ok(row > 0, 'line 8 is on screen');
    const col = patterm.mainArea()[row].indexOf('7');
    patterm.click(main.x + col, main.y + row);
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => /\b8,6\s+All|\b8,6\b/.test(line)), 'vim\'s ruler to show the clicked position (line 8, column 6)');
  } finally {
    patterm.stop();
  }
});

test('paste: a program without bracketed paste gets the plain text; one that enabled it gets the markers', async () => {
  // od -c shows exactly the bytes the program read; "ready" means the program (and its modes) are set up.
  const od = (bracketed: boolean) => ['sh', '-c', `${bracketed ? 'printf "\\033[?2004h"; ' : ''}stty -echo; echo ready-for-paste; od -c`];
  const patterm = TmuxPatterm.start({ processPresets: { plain: { name: 'plain', argv: od(false) }, bracketed: { name: 'bracketed', argv: od(true) } } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    for (const preset of ['plain', 'bracketed']) {
      await patterm.runPalette(`run process: ${preset}`, `Run process: ${preset}`);
      await patterm.waitFor((lines) => lines.some((line) => line.includes(`▶ ${preset}`)) && patterm.mainArea(lines)[0] === 'ready-for-paste', `${preset} to be ready`);
      patterm.paste('ab\ncd');
      patterm.keys('C-d', 'C-d'); // end the line, then end of input
      await patterm.waitFor((lines) => /exited 0/.test(lines[lines.length - 1]), `${preset} to finish`);
    }
    const bytes = (lines: string[]) => lines.slice(1).join(' ').replace(/\s+/g, ' ');
    await runPaletteFocus(patterm, 'plain');
    assert.match(bytes(patterm.mainArea()), /0000000 a b \\n c d\b/, 'plain text, no markers');
    await runPaletteFocus(patterm, 'bracketed');
    assert.match(bytes(patterm.mainArea()), /0000000 033 \[ 2 0 0 ~ a b \\n c d 033 \[ 2 0 1 0000020 ~ 0000021/, 'wrapped in the paste markers');
  } finally {
    patterm.stop();
  }
});

async function runPaletteFocus(patterm: TmuxPatterm, session: string): Promise<void> {
  await patterm.runPalette('switch to', 'Switch to session…');
  await patterm.waitFor(/Switch to session…/, 'the session list');
  patterm.type(session);
  patterm.keys('Enter');
  await patterm.waitFor((lines) => new RegExp(`${session} exited`).test(lines[lines.length - 1]), `the ${session} session`);
}

test('tmux inside a pane: patterm itself runs in tmux, yet the pane is patterm\'s terminal, so a nested tmux starts and draws', async () => {
  const inner = `patterm-nested-${process.pid}`;
  try {
    await withBashSession(async (patterm) => {
      patterm.type('echo "outer=${TMUX:-none} pane=${TMUX_PANE:-none} term=$TERM_PROGRAM"');
      patterm.keys('Enter');
      await patterm.waitFor((lines) => patterm.mainArea(lines).includes('outer=none pane=none term=patterm'), 'no trace of the outer tmux in the pane');
      // With the outer TMUX inherited, tmux refuses: "sessions should be nested with care, unset $TMUX to force".
      patterm.type(`tmux -L ${inner} -f /dev/null new-session -s nested`);
      patterm.keys('Enter');
      await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.startsWith('[nested] 0:')), "the nested tmux's status line", 15_000);
      patterm.type('echo "inner=${TMUX:+set}"');
      patterm.keys('Enter');
      await patterm.waitFor((lines) => patterm.mainArea(lines).includes('inner=set'), 'a shell inside the nested tmux');
      patterm.type('exit');
      patterm.keys('Enter');
      await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.startsWith('[exited]')), 'the nested tmux gone, back in bash');
    });
  } finally {
    try {
      execFileSync('tmux', ['-L', inner, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // already gone: the test's own exit ended it
    }
  }
});

test('the host terminal\'s cursor follows a cursor that only moves along its row, or is hidden and shown', () =>
  withBashSession(async (patterm) => {
    const waitForCursor = (expected: string, what: string) => patterm.waitForValue(() => patterm.mainAreaCursor(), expected, `the cursor ${what}`, NOTHING_DRAWN_TIMEOUT_MS);
    patterm.type('echo abcdef');
    await waitForCursor('13,0', 'after typing');
    // Readline echoes Left as a backspace: no cell changes, only the cursor.
    patterm.keys('Left', 'Left', 'Left');
    await waitForCursor('10,0', 'after three Lefts');
    patterm.keys('Right');
    await waitForCursor('11,0', 'after a Right');
    patterm.keys('C-e', 'C-u');
    // Hidden until a key (read without echo): a fixed hidden spell could pass between two polls of a loaded machine.
    patterm.type("printf '\\033[?25l'; read -rsn1; printf '\\033[?25h'; sleep 30");
    patterm.keys('Enter');
    await waitForCursor('hidden', 'while the program hides it');
    patterm.type('x');
    await waitForCursor('0,1', 'once the program shows it again, on the line below the command');
  }));

test('a mode a program sets with nothing drawn reaches the host terminal: application cursor keys', () =>
  withBashSession(async (patterm) => {
    assert.equal(patterm.format('#{keypad_cursor_flag}'), '0');
    patterm.type("echo drawn; sleep 1; printf '\\033[?1h'; sleep 30");
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('drawn'), 'the output before the mode');
    await patterm.waitForValue(() => patterm.format('#{keypad_cursor_flag}'), '1', 'DECCKM, set a second after the last drawing, to be mirrored', NOTHING_DRAWN_TIMEOUT_MS);
  }));
