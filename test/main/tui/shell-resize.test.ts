/**
 * A shell's command line through resizes of the host terminal, as a new user
 * meets it: output that wraps, then a command line that wraps too, then the
 * terminal narrowed and widened again. Each shell in a pane of the real TUI
 * must show what the same shell shows run straight in tmux at the pane's
 * size: no row of output lost under the redrawn command line, and the cursor
 * where the typing goes on.
 */
import { test } from 'node:test';
import { paneSizeFor } from '../../../src/renderer/layout.js';
import { assertSameScreen, DirectProgram } from './direct-program.js';
import { TmuxPatterm } from './tmux-harness.js';

/** Host sizes: the pane is 74 columns wide, then 89, then 104. */
const SIZES: [number, number][] = [
  [100, 40],
  [120, 40],
  [140, 40],
];
/** 100 characters of output: two rows at either width. */
const WRAPPED_OUTPUT_COMMAND = "printf 'o%.0s' $(seq 100); echo";
/** With the prompt, 164 characters: three rows at 74 columns, two when widened. */
const LONG_COMMAND = `echo ${'the quick brown fox jumps over the lazy dog '.repeat(3)}and on past the edge`;

const SHELLS = {
  zsh: { argv: ['zsh', '-f', '-i'], env: { PS1: '$ ' } },
  bash: { argv: ['bash', '--norc', '--noprofile', '-i'], env: { PS1: '$ ', HISTFILE: '/dev/null' } },
};

for (const [shell, { argv, env }] of Object.entries(SHELLS)) {
  test(`${shell}: a wrapped command line narrowed and widened again keeps the output above it`, async () => {
    const [cols, rows] = SIZES[0];
    const patterm = TmuxPatterm.start({ cols, rows, processPresets: { [shell]: { name: shell, argv, env } } });
    let size = paneSizeFor(cols, rows);
    const direct = new DirectProgram(patterm.dirs.project, size.cols, size.rows, argv, env);
    const both = (text: string, enter = true) => {
      for (const target of [patterm, direct]) {
        target.tmux('send-keys', '-l', text);
        if (enter) target.tmux('send-keys', 'Enter');
      }
    };
    try {
      await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
      await patterm.runPalette(shell, `Run process: ${shell}`);
      await assertSameScreen(patterm, direct, 'the first prompt', shell, true);
      // The prompt on the last row: tmux pushes rows a narrowing adds into its scrollback, ghostty only when it must.
      // Each command is typed once the last has finished: typed ahead, the tty echoes it into the
      // running command's output at a moment that differs between the two terminals.
      both('seq 60');
      await assertSameScreen(patterm, direct, 'seq 60 run', shell, true);
      both(WRAPPED_OUTPUT_COMMAND);
      await assertSameScreen(patterm, direct, 'the wrapped output printed', shell, true);
      both(LONG_COMMAND, false);
      await assertSameScreen(patterm, direct, 'the command line typed', shell, true);
      for (const [nextCols, nextRows] of SIZES.slice(1)) {
        patterm.resize(nextCols, nextRows);
        size = paneSizeFor(nextCols, nextRows);
        direct.tmux('resize-window', '-x', String(size.cols), '-y', String(size.rows));
        await assertSameScreen(patterm, direct, `at ${nextCols}x${nextRows} (the pane ${size.cols}x${size.rows})`, shell, true);
      }
      both('', true);
      await assertSameScreen(patterm, direct, 'the command run', shell, true);
    } finally {
      direct.stop();
      patterm.stop();
    }
  });
}
