/**
 * The two terminals a conformance case runs in, behind one interface: a pane of
 * patterm's (a real PTY and the pane's worker and emulator, as the coordinator
 * runs them) and a detached tmux pane of the same size, the reference.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { Coordinator } from '../../src/main/coordinator.js';
import { killServerWhenGone, TMUX_CLIENT } from '../main/tui/tmux-harness.js';
import { styledRows } from '../../src/shared/styled-line.js';

const run = promisify(execFile);

export interface Screen {
  /** Every row as plain text, trailing blanks trimmed, wide characters once. */
  lines: string[];
  /** Every row with SGR sequences (capture-pane -e form). */
  styled: string[];
  cursor: { x: number; y: number; visible: boolean };
  alternate: boolean;
  /** The window title (OSC 0/2): not compared, but the stream player marks its progress in it. */
  title: string;
}

export interface Terminal {
  /** Bytes as keys: what a person's terminal would send for them. */
  send(keys: string): Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  screen(): Promise<Screen>;
  stop(): Promise<void>;
}

export interface Launch {
  /** The whole command, environment included (`env -i …`), so both terminals run exactly the same thing. */
  argv: string[];
  cwd: string;
  cols: number;
  rows: number;
}

/** Pads or cuts `lines` to exactly `rows` entries: both sides report every row. */
const toRows = (lines: string[], rows: number) => Array.from({ length: rows }, (_, i) => lines[i] ?? '');

/** Separates the reads of one tmux call: a line none of the cases' programs writes. */
const SPLIT = '<<conformance: next read>>';

export class TmuxTerminal implements Terminal {
  private readonly socket = `patterm-conformance-${process.pid}-${randomBytes(4).toString('hex')}`;
  private rows = 0;

  static async start(launch: Launch): Promise<TmuxTerminal> {
    const terminal = new TmuxTerminal();
    terminal.rows = launch.rows;
    killServerWhenGone(terminal.socket);
    await terminal.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'case', '-x', String(launch.cols), '-y', String(launch.rows), '-c', launch.cwd, '--', ...launch.argv);
    return terminal;
  }

  private async tmux(...args: string[]): Promise<string> {
    return (await run('tmux', [...TMUX_CLIENT, '-L', this.socket, ...args], { encoding: 'utf8' })).stdout;
  }

  async send(keys: string): Promise<void> {
    await this.tmux('send-keys', '-t', 'case', '-l', '--', keys);
  }

  async resize(cols: number, rows: number): Promise<void> {
    this.rows = rows;
    await this.tmux('resize-window', '-t', 'case', '-x', String(cols), '-y', String(rows));
  }

  async screen(): Promise<Screen> {
    // One tmux call for the three reads (a process each costs on a loaded machine), split on a line no capture can hold.
    const output = await this.tmux(
      'capture-pane', '-p', '-t', 'case', ';', 'display-message', '-p', SPLIT, ';',
      // -N keeps trailing spaces that carry a background, which plain -e drops.
      'capture-pane', '-p', '-e', '-N', '-t', 'case', ';', 'display-message', '-p', SPLIT, ';',
      'display-message', '-p', '-t', 'case', '#{cursor_x},#{cursor_y},#{cursor_flag},#{alternate_on},#{pane_title}',
    );
    const [plain, styled, state] = output.split(`${SPLIT}\n`);
    const [x, y, visible, alternate] = state.split(',', 4).map(Number);
    const title = state.replace(/\n$/, '').split(',').slice(4).join(',');
    const rowsOf = (text: string) => toRows(text.replace(/\n$/, '').split('\n'), this.rows);
    return {
      lines: rowsOf(plain).map((line) => line.trimEnd()),
      styled: rowsOf(styled),
      cursor: { x, y, visible: visible === 1 },
      alternate: alternate === 1,
      title,
    };
  }

  async stop(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined); // already gone
  }
}

/** Reads of a changing screen before one is returned anyway: the caller polls until the screen holds still. */
const SAME_VERSION_ATTEMPTS = 5;

export class PattermTerminal implements Terminal {
  private constructor(
    private readonly coordinator: Coordinator,
    private readonly paneId: string,
  ) {}

  static async start(launch: Launch): Promise<PattermTerminal> {
    const coordinator = new Coordinator(launch.cwd);
    coordinator.setPaneSize(launch.cols, launch.rows);
    try {
      const pane = await coordinator.spawn({ argv: launch.argv, cwd: launch.cwd, kind: 'process' });
      return new PattermTerminal(coordinator, pane.id);
    } catch (error) {
      await coordinator.shutdown(0);
      throw error;
    }
  }

  async send(keys: string): Promise<void> {
    this.coordinator.write(this.paneId, keys, 'user');
  }

  async resize(cols: number, rows: number): Promise<void> {
    this.coordinator.setPaneSize(cols, rows);
  }

  async screen(): Promise<Screen> {
    // The grid and the cells are two reads: take them again while they come from different screen versions.
    for (let attempt = 1; ; attempt++) {
      const [grid, frame] = await Promise.all([this.coordinator.grid(this.paneId), this.coordinator.cells(this.paneId)]);
      if ((grid.screenVersion !== frame.screenVersion || grid.rows !== frame.rows) && attempt < SAME_VERSION_ATTEMPTS) continue;
      return {
        lines: toRows(grid.lines, grid.rows),
        styled: styledRows(frame),
        cursor: { ...grid.cursor },
        alternate: grid.activeScreen === 'alternate',
        title: grid.title,
      };
    }
  }

  async stop(): Promise<void> {
    await this.coordinator.shutdown(500);
  }
}
