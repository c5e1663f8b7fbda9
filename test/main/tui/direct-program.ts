/**
 * A program run straight in its own tmux at a pane's size, as the reference
 * for what it should look like inside patterm.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describeCells, killServerWhenGone, SCREEN_TIMEOUT_MS, sleep, styledLines, TMUX_CLIENT, type TmuxPatterm } from './tmux-harness.js';
import { UTF8_LOCALE } from '../../helpers/locale.js';

/** A program run straight in its own tmux, at the pane's size: the reference screen. */
export class DirectProgram {
  readonly socket = `patterm-direct-${process.pid}-${randomBytes(4).toString('hex')}`;

  constructor(cwd: string, cols: number, rows: number, argv: string[], env: Record<string, string> = {}) {
    // The same TERM and COLORTERM a pane gets, and the locale patterm runs in, so the program makes the same choices.
    const vars = { TERM: 'xterm-256color', COLORTERM: 'truecolor', ...UTF8_LOCALE, ...env };
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-x', String(cols), '-y', String(rows), '-c', cwd, ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]), ...argv);
    killServerWhenGone(this.socket);
    this.tmux('set-option', '-g', 'escape-time', '0');
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', [...TMUX_CLIENT, '-L', this.socket, ...args], { encoding: 'utf8' });
  }

  screen(): string[] {
    return this.tmux('capture-pane', '-p').replace(/\n$/, '').split('\n').map((line) => line.trimEnd());
  }

  styledScreen(): string[] {
    return styledLines(this.tmux('capture-pane', '-p', '-e').replace(/\n$/, '').split('\n')).map(describeCells);
  }

  /** "x,y" when the cursor is shown; "hidden" otherwise (a hidden cursor's position is not on screen). */
  cursor(): string {
    const [x, y, shown] = this.tmux('display-message', '-p', '#{cursor_x},#{cursor_y},#{cursor_flag}').trim().split(',');
    return shown === '1' ? `${x},${y}` : 'hidden';
  }

  stop(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }
}

/**
 * Polls until both screens are equal in text, cursor and (unless `textOnly`)
 * colours and attributes: each program redraws in its own time. Fails with a diff.
 */
export async function assertSameScreen(
  patterm: TmuxPatterm,
  direct: DirectProgram,
  what: string,
  program = 'vim',
  textOnly = false,
  /** Masks content the program itself varies from run to run (random tips, spinner verbs); applied to the styled lines too. */
  normalize: (line: string) => string = (line) => line,
): Promise<void> {
  const deadline = Date.now() + SCREEN_TIMEOUT_MS;
  let ours: string[] = [];
  let theirs: string[] = [];
  let cursors = '';
  while (Date.now() < deadline) {
    ours = patterm.mainArea().map(normalize);
    theirs = direct.screen().map(normalize);
    const cursor = patterm.mainAreaCursor();
    cursors = `cursor: direct ${direct.cursor()}, patterm ${cursor}`;
    if (ours.join('\n') === theirs.join('\n') && cursor === direct.cursor()) {
      if (textOnly) return;
      // Same text and cursor: the colours and attributes must match too.
      const styled = patterm.styledMainArea().map(normalize);
      const reference = direct.styledScreen().map(normalize);
      if (styled.join('\n') === reference.join('\n')) return;
      ours = styled;
      theirs = reference;
    }
    await sleep(50);
  }
  const diff = theirs.map((line, i) => (line === ours[i] ? `  ${line}` : `- ${line}\n+ ${ours[i]}`)).join('\n');
  assert.fail(`${what}: ${program} in patterm differs from ${program} in a plain terminal (- direct, + patterm; ${cursors}):\n${diff}`);
}
