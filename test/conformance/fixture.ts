/**
 * The files the conformance cases run on, made fresh in a temporary directory:
 * texts for vim and less, a man page, a directory for `ls --color`, a git
 * repository with fixed authors and dates, bash's rc and history, htop's config
 * and the escape-sequence streams. Nothing depends on the machine's home,
 * clock or locale settings.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Fixture {
  readonly dir: string;
  /** The whole environment every case runs with (plus the case's own). */
  readonly env: Record<string, string>;
  /** A process that lives as long as the fixture and never changes, for htop to watch. */
  readonly quietPid: number;
  /** Writes a file into the fixture (streams, per-case files) and returns its path. */
  write(name: string, content: string | Uint8Array): string;
  remove(): void;
}

/** Shown by `bash` and the stream player: a prompt with nothing that varies. */
const PS1 = '$ ';

const NOTES = Array.from({ length: 80 }, (_, i) =>
  i % 9 === 4 ? `${i + 1}: a long line that runs past the edge of the screen so that vim has to wrap it onto the next row, twice over at forty columns` : `${i + 1}: the quick brown fox jumps over the lazy dog`,
).join('\n');

const BOOK = Array.from({ length: 200 }, (_, i) => (i % 37 === 20 ? `line ${i + 1} hides a needle in the hay` : `line ${i + 1} is hay and more hay`)).join('\n');

const MAN_PAGE = `.TH FIXTURE 1 "2026-01-01" "fixture 1.0" "Fixture Manual"
.SH NAME
fixture \\- a made-up command for tests
.SH SYNOPSIS
.B fixture
[\\fB\\-v\\fR] [\\fB\\-o\\fR \\fIoutput\\fR] [\\fIfile\\fR ...]
.SH DESCRIPTION
.B fixture
reads each \\fIfile\\fR in turn and does nothing at all with it, which makes it
quick and safe to run on anything. It exists so that the terminal tests have a
manual page whose text never changes.
.SH OPTIONS
.TP
.B \\-v
Say what is being ignored.
.TP
.BI \\-o " output"
Write nothing to \\fIoutput\\fR.
.SH EXIT STATUS
Zero, always.
`;

/**
 * htop with a blank header and only PID, state and command, so nothing on its
 * screen changes while it watches one sleeping process. `color_scheme` is
 * filled in: 1 is monochrome, 0 the default colours.
 */
const htoprc = (colorScheme: number) => `htop_version=3.2.2
config_reader_min_version=3
fields=0 2 1
hide_kernel_threads=1
hide_userland_threads=1
show_program_path=0
highlight_base_name=0
highlight_changes=0
header_margin=0
screen_tabs=0
color_scheme=${colorScheme}
enable_mouse=0
delay=100
hide_function_bar=0
header_layout=one_100
column_meters_0=Blank
column_meter_modes_0=2
tree_view=0
sort_key=0
sort_direction=1
screen:Main=PID STATE Command
.sort_key=PID
.tree_view=0
.sort_direction=1
`;

/**
 * Plays stream chunks one per Enter, with echo off so the Enter leaves no mark,
 * then waits to be ended. After chunk N it sets the title to "played N", which
 * the cases wait for: the title is not on the screen being compared.
 */
const PLAYER = `stty -echo
n=0
for chunk in "$@"; do cat "$chunk"; printf '\\033]2;played %s\\007' "$n"; n=$((n + 1)); read -r _; done
exec sleep 100000
`;

function makeGitRepository(repo: string, env: Record<string, string>): void {
  mkdirSync(repo);
  let tick = 0;
  const git = (...args: string[]) => {
    const date = `2026-01-0${1 + Math.floor(tick / 6)}T1${tick % 6}:00:00Z`;
    tick++;
    execFileSync('git', ['-c', 'user.name=Ada Fixture', '-c', 'user.email=ada@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
      cwd: repo,
      env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'ignore',
    });
  };
  const commit = (file: string, text: string, message: string) => {
    writeFileSync(join(repo, file), text);
    git('add', file);
    git('commit', '-q', '-m', message);
  };
  git('init', '-q');
  commit('README', 'hello\n', 'Start the fixture repository');
  commit('a.txt', 'a\n', 'Add a');
  git('checkout', '-q', '-b', 'feature');
  commit('b.txt', 'b\n', 'Add b on the feature branch');
  commit('b.txt', 'b2\n', 'Change b');
  git('checkout', '-q', 'main');
  commit('c.txt', 'c\n', 'Add c on main');
  git('merge', '-q', '--no-ff', '-m', 'Merge branch feature', 'feature');
  git('tag', 'v1.0');
  commit('d.txt', 'd\n', 'Add d after the merge');
}

function makeListing(dir: string): void {
  mkdirSync(join(dir, 'subdir'), { recursive: true });
  writeFileSync(join(dir, 'plain.txt'), 'plain\n');
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n');
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeFileSync(join(dir, 'bundle.tar'), '');
  writeFileSync(join(dir, 'picture.png'), '');
  symlinkSync('plain.txt', join(dir, 'link'));
  symlinkSync('missing', join(dir, 'broken'));
  execFileSync('mkfifo', [join(dir, 'pipe')]);
}

/** How long htop's quiet process lives: the whole suite, and not much longer if the suite dies without removing it. */
const QUIET_SECONDS = 3600;

export function makeFixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'patterm-conformance-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    TZ: 'UTC',
    PS1,
    HISTFILE: '/dev/null',
    LESSHISTFILE: '-',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const write = (name: string, content: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  write('notes.txt', `${NOTES}\n`);
  write('book.txt', `${BOOK}\n`);
  write('sample.sh', ['#!/bin/sh', '# a comment in a script', 'name="world"', 'for i in 1 2 3; do', '  echo "hello $name $i"', 'done', 'exit 0'].join('\n') + '\n');
  write('unicode.txt', ['plain ascii line', '日本語の文章 and 中文 mixed', 'wide: 漢字かな, accents: é à ü, n\u0303', 'emoji 😀 🎉 ok', 'Korean 한국어 text'].join('\n') + '\n');
  write('emoji.txt', ['hearts and smiles', 'a❤️b☺️c1️⃣d', 'thumbs 👍🏽 up', 'the end'].join('\n') + '\n');
  write('fixture.1', MAN_PAGE);
  write('vimrc', 'set nocompatible background=dark\n');
  write('history', ['echo first', 'echo second from history', 'ls subdir'].join('\n') + '\n');
  write('bashrc', `PS1='${PS1}'\nhistory -r ${join(dir, 'history')}\n`);
  write('play.sh', PLAYER);
  write('htoprc-monochrome', htoprc(1));
  write('htoprc-colours', htoprc(0));
  makeListing(join(dir, 'listing'));
  makeGitRepository(join(dir, 'repo'), env);
  const quiet: ChildProcess = spawn('sleep', [String(QUIET_SECONDS)], { stdio: 'ignore' });
  return {
    dir,
    env,
    quietPid: quiet.pid!,
    write,
    remove() {
      quiet.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
