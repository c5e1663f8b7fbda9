/**
 * What patterm does to the host terminal beyond drawing cells, in a real
 * terminal (tmux): the window title follows the focused pane, bells pass
 * through from the focused pane and mark the others, and a screen something
 * else drew over (while patterm was stopped, or at any time) is repaired.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, TmuxPatterm, withBashSession } from './tmux-harness.js';
import { focusLogger } from '../../helpers/coordinator-fixture.js';

const BELL = '🔔';

const title = (patterm: TmuxPatterm) => patterm.format('#{pane_title}');
const waitTitle = (patterm: TmuxPatterm, wanted: string) => eventually(() => title(patterm) === wanted, `the window title "${wanted}" (it is "${title(patterm)}")`);
const mainHas = (patterm: TmuxPatterm, text: string) => (lines: string[]) => patterm.mainArea(lines).some((line) => line.includes(text));

/** Runs a command in the focused bash and waits for what it prints. */
async function run(patterm: TmuxPatterm, command: string, output: string): Promise<void> {
  patterm.type(command);
  patterm.keys('Enter');
  await patterm.waitFor((l) => patterm.mainArea(l).includes(output), `"${output}"`);
}

test('the window title is the focused pane\'s own title (or its name) with " — patterm", and the user\'s comes back on exit', () =>
  withBashSession(async (patterm) => {
    const before = patterm.format('#{host}'); // tmux's title for a pane that never set one
    await waitTitle(patterm, 'bash — patterm');
    await run(patterm, `printf '\\033]2;my build\\007'; echo title-set`, 'title-set');
    await waitTitle(patterm, 'my build — patterm');

    await patterm.runPalette('run process: bash', 'Run process: bash');
    await patterm.waitFor((l) => patterm.mainArea(l)[0] === '$' && l[0].includes('bash-2'), 'a second session, focused');
    await waitTitle(patterm, 'bash-2 — patterm');
    await patterm.runPalette('previous session', 'Previous session');
    await waitTitle(patterm, 'my build — patterm');
    await run(patterm, `printf '\\033]0;renamed\\007'; echo title-changed`, 'title-changed');
    await waitTitle(patterm, 'renamed — patterm');

    await patterm.runPalette('quit', 'Quit');
    await patterm.expectExitAndRestore(0);
    assert.equal(title(patterm), before, 'the title from before patterm is back');
  }));

test('a bell in the focused pane rings the host terminal; one in another pane marks its tree entry and tab until focused', () =>
  withBashSession(async (patterm) => {
    const go = join(patterm.root, 'ring-now');
    // The root waits for the test's signal, so it rings only once it has lost focus.
    patterm.type(`while [ ! -e ${go} ]; do sleep 0.05; done; printf '\\a'; echo root-rang`);
    patterm.keys('Enter');
    await patterm.runPalette('in bash bash', 'Run process in bash: bash');
    await patterm.waitFor((l) => l.some((line) => line.includes('└─ ◉ bash-2')) && patterm.mainArea(l)[0] === '$', 'the child, focused');

    writeFileSync(go, '');
    let lines = await patterm.waitFor((l) => l.some((line) => line.includes(`▶ bash ${BELL}`)), 'the bell mark on the root\'s tree entry');
    assert.match(lines[0], new RegExp(`^ bash ${BELL} `), 'and on the session\'s tab');
    assert.equal(patterm.format('#{window_bell_flag}'), '0', 'an unfocused pane\'s bell does not ring the host');

    const row = lines.findIndex((line) => line.includes('▶ bash'));
    patterm.click(lines[row].lastIndexOf('bash'), row);
    lines = await patterm.waitFor((l) => patterm.mainArea(l).includes('root-rang') && !l.join('\n').includes(BELL), 'focus to clear the mark');
    assert.equal(patterm.format('#{window_bell_flag}'), '0');

    patterm.type(`printf '\\a'; echo focused-rang`);
    patterm.keys('Enter');
    await patterm.waitFor(mainHas(patterm, 'focused-rang'), 'the focused pane\'s bell');
    await eventually(() => patterm.format('#{window_bell_flag}') === '1', 'the host terminal\'s bell');
    assert.ok(!patterm.screen().join('\n').includes(BELL), 'the focused pane is not marked');
  }));

/** Draws junk over every row, rail and status line included, as something writing to the tty would. */
function scribble(patterm: TmuxPatterm, modesOff: string): void {
  const rows = Number(patterm.format('#{window_height}'));
  let junk = modesOff;
  for (let row = 1; row <= rows; row++) junk += `\x1b[${row};1HJUNK${row}\x1b[${row};100HJUNK`;
  writeFileSync(patterm.format('#{pane_tty}'), junk);
}

const intact = (patterm: TmuxPatterm, output: string) => (lines: string[]) =>
  !lines.join('\n').includes('JUNK') && patterm.mainArea(lines).includes(output) && lines.some((line) => line.includes('Session tree')) && /you have control/.test(lines[lines.length - 1]);

/** Runs stty on patterm's terminal. */
const stty = (patterm: TmuxPatterm, args: string) => execFileSync('sh', ['-c', `stty ${args} < ${patterm.format('#{pane_tty}')}`], { encoding: 'utf8' });

const mouseFlags = (patterm: TmuxPatterm) => patterm.format('#{mouse_button_flag}#{mouse_sgr_flag}');

test('SIGCONT after a stop: raw mode, the host modes and every cell come back, whatever was drawn meanwhile', () =>
  withBashSession(async (patterm) => {
    await run(patterm, 'echo before-stop', 'before-stop');
    const pid = patterm.pattermPid();
    assert.ok(pid, 'patterm\'s pid');
    process.kill(pid, 'SIGSTOP');
    await eventually(() => /\) T /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')), 'patterm stopped');
    // Another program drew over the screen and turned patterm's mouse modes off; a stty sane put the tty back in cooked mode.
    scribble(patterm, '\x1b[?1002l\x1b[?1000l\x1b[?1006l');
    stty(patterm, 'sane');
    assert.match(stty(patterm, '-a'), /(^|\s)icanon\s/);
    await patterm.waitFor(/JUNK/, 'the junk on screen');
    assert.equal(mouseFlags(patterm), '00');

    process.kill(pid, 'SIGCONT');
    await patterm.waitFor(intact(patterm, 'before-stop'), 'patterm\'s screen, junk gone');
    assert.equal(mouseFlags(patterm), '11', 'mouse reporting back on');
    assert.match(stty(patterm, '-a'), /(^|\s)-icanon\s.*(^|\s)-echo\s/s, 'raw mode again');
    await run(patterm, 'echo after-resume', 'after-resume');
  }));

test('SIGTSTP gives the terminal back (main screen, modes off) and stops patterm; SIGCONT takes it again', () =>
  withBashSession(async (patterm) => {
    await run(patterm, 'echo before-suspend', 'before-suspend');
    const pid = patterm.pattermPid()!;
    process.kill(pid, 'SIGTSTP');
    await eventually(() => /\) T /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')), 'patterm stopped');
    assert.equal(patterm.format('#{alternate_on} #{cursor_flag} #{mouse_button_flag}'), '0 1 0', 'main screen, cursor shown, mouse off');
    assert.equal(title(patterm), patterm.format('#{host}'), 'the user\'s title while suspended');

    process.kill(pid, 'SIGCONT');
    await patterm.waitFor(intact(patterm, 'before-suspend'), 'patterm\'s screen again');
    assert.equal(patterm.format('#{alternate_on} #{mouse_button_flag}'), '1 1');
    await waitTitle(patterm, 'bash — patterm');
    await run(patterm, 'echo after-suspend', 'after-suspend');
  }));

test('"Redraw screen" repaints every cell after something drew over patterm', () =>
  withBashSession(async (patterm) => {
    await run(patterm, 'echo under-the-junk', 'under-the-junk');
    scribble(patterm, '');
    await patterm.waitFor(/JUNK/, 'the junk on screen');
    await patterm.runPalette('redraw', 'Redraw screen');
    await patterm.waitFor(intact(patterm, 'under-the-junk'), 'patterm\'s screen, junk gone');
  }));

test('focus reporting: a program that asked for it hears when its session is shown and when another one is', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { logger: { name: 'logger', argv: focusLogger(true) } } });
  const received = (lines: string[]) => patterm.mainArea(lines).filter((line) => line.startsWith('got '));
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('logger', 'Run process: logger');
    await patterm.waitFor((l) => received(l).at(-1) === 'got "ESC[I"', 'the first logger, shown, told it has focus');
    await patterm.runPalette('logger', 'Run process: logger');
    await patterm.waitFor((l) => l[0].includes('logger-2') && received(l).at(-1) === 'got "ESC[I"', 'the second logger, shown, told it has focus');
    await patterm.runPalette('previous session', 'Previous session');
    // Hidden while the second one was shown, then shown again; nothing typed reached it.
    const back = await patterm.waitFor((l) => received(l).slice(-2).join(' ') === 'got "ESC[O" got "ESC[I"', 'the first logger told it lost focus, then got it back');
    assert.ok(received(back).every((line) => /^got "ESC\[[IO]"$/.test(line)), received(back).join('\n'));
  } finally {
    patterm.stop();
  }
});
