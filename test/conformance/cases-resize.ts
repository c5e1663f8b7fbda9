/**
 * Conformance cases that resize a shell waiting at its prompt, with wrapped
 * output above a command line that wraps too. On a resize the shell redraws
 * its command line, starting as many rows up from the cursor as the line took
 * before: wherever the terminal's reflow left the cursor decides which row
 * that lands on, so a cursor one row off loses a row of output.
 *
 * zsh draws a wrapped command line by erasing each new row from its first
 * column, which ends the soft wrap in tmux and xterm: widened, the rows stay
 * apart (patterm's emulator mends ghostty's wrap to match: erased-wrap.ts).
 *
 * tmux differs from patterm's emulator in two ways these cases keep clear of:
 * on a narrowing it pushes the rows the text gained into the scrollback even
 * with blank rows below the cursor, and on a widening that takes rows away it
 * adds blank rows at the top. So a narrowing here either keeps the row count
 * or has the prompt on the last row, and a widening keeps the output's rows.
 */
import type { ConformanceCase } from './run-case.js';
import type { Screen } from './terminals.js';
import { BASH, ENTER, LONG_COMMAND } from './cases-programs.js';

/** zsh without start-up files: the fixture's PS1 (`$ `) from the environment. */
const ZSH = ['zsh', '-f', '-i'];
/** Output 50 characters long: at 40 columns its last 10 wrap onto a row of their own. */
const WRAPPED_OUTPUT = 'abcdefghij'.repeat(5);
/** A short command whose output is 71 characters long: at 60 columns its last 11 wrap onto a row of their own. */
const DIGITS = "seq -s '' 40";
/** The end of DIGITS' output on its row of its own, then the next prompt. */
const DIGITS_OUTPUT = /^\d{11}\n\$$/m;
/** With the prompt, 50 characters: one row at 60 columns, two at 40. */
const SHORTER_COMMAND = 'echo the quick brown fox jumps over the lazy dog';
/** The end of SHORTER_COMMAND's output at 40 columns, then the next prompt. */
const SHORTER_OUTPUT = /^dog\n\$$/m;

const toCols = (cols: number, rows: number) => ({ resize: { cols, rows }, until: (screen: Screen) => screen.lines.length === rows && screen.lines.every((line) => line.length <= cols), label: `to ${cols}x${rows}` });

/** bash at 40x10 with wrapped output, then a command line that wraps, then `resizes`, then Enter. */
function bashPrompt(name: string, resizes: [number, number][], fill = false): ConformanceCase {
  return {
    name,
    cols: 40,
    rows: 10,
    command: BASH,
    ready: '$',
    steps: [
      ...(fill ? [{ keys: `seq 12${ENTER}`, until: /^12\n\$$/m, label: 'fill the screen' }] : []),
      { keys: `echo ${WRAPPED_OUTPUT}${ENTER}`, until: /^abcdefghij\n\$$/m, label: 'output that wraps' },
      { keys: LONG_COMMAND, until: /edge$/m, label: 'a command line that wraps' },
      ...resizes.map(([cols, rows]) => toCols(cols, rows)),
      { keys: ENTER, until: /^the quick brown/m, label: 'Enter' },
    ],
  };
}

/** zsh at 40x10 with wrapped output, then a command line that wraps, then `resizes` (none narrower than 40), then Enter. */
function zshWidened(name: string, resizes: [number, number][], fill = false): ConformanceCase {
  return {
    name,
    cols: 40,
    rows: 10,
    command: ZSH,
    ready: '$',
    steps: [
      ...(fill ? [{ keys: `seq 12${ENTER}`, until: /^12\n\$$/m, label: 'fill the screen' }] : []),
      { keys: DIGITS + ENTER, until: /^\d{31}\n\$$/m, label: 'output that wraps' },
      { keys: LONG_COMMAND, until: /edge$/m, label: 'a command line that wraps' },
      ...resizes.map(([cols, rows]) => toCols(cols, rows)),
      { keys: ENTER, until: /^the quick brown/m, label: 'Enter' },
    ],
  };
}

export const RESIZE_CASES: ConformanceCase[] = [
  // Back to 40 columns the command line ends 5 cells into its third row: the cursor belongs there, not a row up.
  bashPrompt('resize-bash-prompt', [[30, 10], [40, 10]]),
  bashPrompt('resize-bash-prompt on the last row', [[30, 10], [40, 10]], true),
  bashPrompt('resize-bash-prompt several times', [[30, 10], [40, 10], [35, 10], [42, 10], [29, 10], [40, 10]]),
  bashPrompt('resize-bash-prompt widened twice on the last row', [[50, 10], [60, 10]], true),
  bashPrompt('resize-bash-prompt widened twice', [[44, 10], [48, 10]]),
  {
    name: 'resize-zsh-prompt on the last row',
    cols: 60,
    rows: 10,
    command: ZSH,
    ready: '$',
    steps: [
      { keys: `seq 12${ENTER}`, until: /^12\n\$$/m, label: 'fill the screen' },
      { keys: DIGITS + ENTER, until: DIGITS_OUTPUT, label: 'output that wraps' },
      { keys: SHORTER_COMMAND, until: /lazy dog$/m, label: 'a command line' },
      toCols(40, 10),
      { keys: ENTER, until: SHORTER_OUTPUT, label: 'Enter' },
    ],
  },
  zshWidened('resize-zsh-prompt widened', [[60, 10]]),
  zshWidened('resize-zsh-prompt widened on the last row', [[60, 10]], true),
  zshWidened('resize-zsh-prompt several times', [[60, 10], [50, 10], [66, 10], [45, 10], [70, 10]]),
];
