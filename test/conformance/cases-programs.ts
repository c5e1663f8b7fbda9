/**
 * Conformance cases that drive real programs with keys, on the fixture's files
 * (see fixture.ts). Each step's `until` names what the program shows once it
 * has handled the keys, so neither side is compared before it got there.
 */
import { KEYCAP_VS16_TODO, type ConformanceCase } from './run-case.js';
import type { Screen } from './terminals.js';

const ESCAPE = '\x1b';
export const ENTER = '\r';
const UP = '\x1b[A';
const CTRL_A = '\x01';
const CTRL_E = '\x05';
const CTRL_F = '\x06';
const CTRL_B = '\x02';

/** vim with the fixture's vimrc (nocompatible, dark background) and no viminfo or swap file. */
const VIM = ['vim', '-u', 'vimrc', '-i', 'NONE', '-n'];
/** bash with the fixture's rc: prompt `$ `, history read from the fixture, none written. */
export const BASH = ['bash', '--rcfile', 'bashrc', '-i'];

/** A key that quits a full-screen program, and the wait for the primary screen to be back. */
const quitWith = (keys: string) => ({ keys, until: (screen: Screen) => !screen.alternate, label: `quit with ${JSON.stringify(keys)}` });

/** htop watching the fixture's quiet process, with the fixture's htoprc-<scheme> (see fixture.ts). */
const htopCase = (scheme: 'monochrome' | 'colours'): ConformanceCase => ({
  name: `htop watching one quiet process (${scheme})`,
  cols: 80,
  rows: 12,
  command: (fixture) => ['htop', '-p', String(fixture.quietPid)],
  env: { HTOPRC: `htoprc-${scheme}` },
  ready: /sleep \d+$/m,
  steps: [quitWith('q')],
});

/** Output 50 characters long: at 40 columns its last 10 wrap onto a row of their own. */
const WRAPPED_OUTPUT = 'abcdefghij'.repeat(5);
export const LONG_COMMAND = 'echo the quick brown fox jumps over the lazy dog and keeps on running past the edge';

export const PROGRAM_CASES: ConformanceCase[] = [
  {
    name: 'vim: open, scroll, :set nu, edit and quit',
    cols: 60,
    rows: 16,
    command: [...VIM, 'notes.txt'],
    ready: '"notes.txt"',
    steps: [
      { keys: CTRL_F, until: '20: the quick', label: 'Ctrl-F' },
      { keys: CTRL_B, until: '1: the quick', label: 'Ctrl-B' },
      { keys: ':set nu' + ENTER, until: /^ +1 1: the quick/m, label: ':set nu' },
      { keys: 'G', until: '80: the quick', label: 'G' },
      { keys: 'ggOinserted at the top', until: 'inserted at the top', label: 'O and text' },
      { keys: ESCAPE, until: (screen) => screen.cursor.x === 'inserted at the top'.length + 3, label: 'Escape' },
      { keys: 'jdd', until: /^ +2 2: the quick/m, label: 'jdd' },
      quitWith(':q!' + ENTER),
    ],
  },
  {
    name: 'vim: syntax colours and a visual selection',
    cols: 50,
    rows: 10,
    command: [...VIM, '-c', 'syntax on', 'sample.sh'],
    ready: '"sample.sh"',
    steps: [
      { keys: 'jjVj', until: '-- VISUAL LINE --', label: 'select two lines' },
      { keys: ESCAPE, until: (screen) => !screen.lines.some((line) => line.includes('VISUAL')), label: 'Escape' },
      quitWith(':q!' + ENTER),
    ],
  },
  {
    name: 'less: search, next match, quit',
    cols: 50,
    rows: 12,
    command: ['less', 'book.txt'],
    ready: 'line 1 is hay',
    steps: [
      { keys: '/needle' + ENTER, until: 'line 21 hides a needle', label: '/needle' },
      { keys: 'n', until: 'line 58 hides a needle', label: 'n' },
      quitWith('q'),
    ],
  },
  {
    name: 'man: a page, a search, quit',
    cols: 70,
    rows: 16,
    command: ['man', '-l', 'fixture.1'],
    ready: 'FIXTURE(1)',
    steps: [
      { keys: '/EXIT' + ENTER, until: /^EXIT STATUS/m, label: '/EXIT' },
      quitWith('q'),
    ],
  },
  {
    name: 'python REPL: a function, a traceback, unicode output',
    cols: 60,
    rows: 20,
    command: ['python3', '-q'],
    ready: '>>>',
    steps: [
      { keys: 'def f(x):' + ENTER, until: '...', label: 'def' },
      { keys: '    return 1 / x' + ENTER, until: /return 1 \/ x\n\.\.\./, label: 'body' },
      { keys: ENTER, until: /^>>>$/m, label: 'end of def' },
      { keys: 'f(0)' + ENTER, until: 'ZeroDivisionError', label: 'f(0)' },
      { keys: 'print("naïve 日本 ✓")' + ENTER, until: /^naïve 日本 ✓$/m, label: 'print' },
      { keys: UP + UP, until: /^>>> f\(0\)$/m, label: 'history' },
    ],
  },
  {
    name: 'bash readline: a wrapped line, Ctrl-A and Ctrl-E, history',
    cols: 40,
    rows: 10,
    command: BASH,
    ready: '$',
    steps: [
      { keys: LONG_COMMAND, until: /edge$/m, label: 'a line longer than the screen' },
      { keys: CTRL_A, until: (screen) => screen.cursor.x === 2, label: 'Ctrl-A' },
      { keys: '#', until: '$ #echo', label: 'type at the start' },
      { keys: CTRL_E, until: (screen) => screen.cursor.x === (LONG_COMMAND.length + 3) % 40, label: 'Ctrl-E' },
      { keys: ENTER, until: /^\$$/m, label: 'Enter' },
      { keys: UP, until: /e edge\n\$ #echo/, label: 'Up' },
      { keys: UP + UP, until: '$ echo second from history', label: 'Up twice more' },
      { keys: ENTER, until: /^second from history$/m, label: 'run it' },
    ],
  },
  {
    name: 'git log --graph --color over branches and a merge',
    cols: 80,
    rows: 24,
    command: ['git', '-C', 'repo', '--no-pager', 'log', '--graph', '--color', '--decorate', '--all'],
    ready: 'Start the fixture repository',
    steps: [],
  },
  {
    name: 'git log --graph --oneline',
    cols: 60,
    rows: 12,
    command: ['git', '-C', 'repo', '--no-pager', 'log', '--graph', '--color', '--oneline', '--decorate', '--all'],
    ready: 'Start the fixture repository',
    steps: [],
  },
  {
    name: 'ls --color, short and long',
    cols: 60,
    rows: 20,
    command: ['sh', '-c', 'ls --color -C listing; ls --color -l --time-style=+DATE listing'],
    ready: 'run.sh',
    steps: [],
  },
  htopCase('monochrome'),
  htopCase('colours'),
  {
    name: 'vim on CJK, combining marks and plain emoji',
    cols: 40,
    rows: 10,
    command: [...VIM, 'unicode.txt'],
    ready: '"unicode.txt"',
    steps: [
      { keys: 'jjf字', until: (screen) => screen.cursor.y === 2 && screen.cursor.x === 8, label: 'onto the second wide character' },
      { keys: 'x', until: 'wide: 漢かな', label: 'delete it' },
      { keys: '$', until: (screen) => screen.cursor.x > 20, label: 'to the end of the line' },
      quitWith(':q!' + ENTER),
    ],
  },
  {
    name: 'vim on emoji with a variation selector',
    todo: KEYCAP_VS16_TODO,
    cols: 40,
    rows: 8,
    command: [...VIM, 'emoji.txt'],
    ready: '"emoji.txt"',
    steps: [
      { keys: 'jl', until: (screen) => screen.cursor.y === 1 && screen.cursor.x === 1, label: 'onto the emoji' },
      { keys: 'x', until: 'ab', label: 'delete it' },
    ],
  },
  {
    name: 'resize while vim runs',
    cols: 60,
    rows: 16,
    command: [...VIM, '-c', 'set nu', 'notes.txt'],
    ready: '"notes.txt"',
    steps: [
      { resize: { cols: 40, rows: 10 }, until: (screen) => screen.lines.length === 10, label: 'to 40x10' },
      { resize: { cols: 90, rows: 20 }, until: (screen) => screen.lines.length === 20, label: 'to 90x20' },
      { keys: 'G', until: '80: the quick', label: 'G' },
    ],
  },
  {
    name: 'resize while bash has a wrapped line',
    cols: 40,
    rows: 10,
    command: BASH,
    ready: '$',
    steps: [
      { keys: LONG_COMMAND, until: /edge$/m, label: 'a line longer than the screen' },
      { resize: { cols: 30, rows: 10 }, until: (screen) => screen.lines[0].length <= 30, label: 'to 30 columns' },
      { resize: { cols: 60, rows: 10 }, label: 'to 60 columns' },
      { keys: ENTER, until: /^the quick brown/m, label: 'Enter' },
    ],
  },
];
