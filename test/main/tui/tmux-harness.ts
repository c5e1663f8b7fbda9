/**
 * Runs the real `bin/patterm` inside a private tmux server, as a person would
 * in their terminal, and reads what they would see with capture-pane.
 *
 * Every instance gets its own tmux socket and its own XDG config, data, cache
 * and runtime directories with the presets a test asks for, so tests never touch
 * the user's setup or each other. Waits are on screen content with generous
 * timeouts, never on elapsed time: the machine is shared and noisy.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { computeLayout } from '../../../src/renderer/layout.js';
import { graphemes, textWidth } from '../../../src/renderer/text-width.js';
import { INSTANCE_MARKER_VAR } from '../../../src/node/process-reaper.js';
import { UTF8_LOCALE } from '../../helpers/locale.js';

export const REPO = new URL('../../../../', import.meta.url).pathname;
export const PATTERM_BIN = join(REPO, 'bin', 'patterm');
export const FAKE_AGENT = join(REPO, 'dist', 'test', 'fixtures', 'fake-agent.js');
/** patterm whose threads a test can crash for real (test/fixtures/fault-injection/patterm.ts). */
export const FAULT_INJECTING_PATTERM = join(REPO, 'dist', 'test', 'fixtures', 'fault-injection', 'patterm.js');

/** Generous: a cold start compiles WASM and starts workers on a busy two-core machine. */
export const SCREEN_TIMEOUT_MS = 30_000;
/** How long stop() waits for SIGKILLed processes to be gone (the kernel delivers it asynchronously). */
const STOP_WAIT_MS = 5_000;
const POLL_MS = 50;

/**
 * Kills the tmux server on `socket` once this test process is gone, however it
 * ended: a test file killed by the runner's timeout never reaches stop(), and
 * its tmux (with patterm and its panes in it) would otherwise run on for the
 * hour the harness's trailing sleep lasts.
 */
export function killServerWhenGone(socket: string): void {
  const watcher = spawn('sh', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec tmux -L "$2" kill-server', 'sh', String(process.pid), socket], {
    detached: true,
    stdio: 'ignore',
  });
  watcher.on('error', () => undefined);
  watcher.unref();
}

/**
 * How the tests run the tmux client: -u says it takes UTF-8 whatever the test's locale, as
 * without one tmux prints "_" for each non-ASCII character of a format (a title's "—").
 */
export const TMUX_CLIENT = ['-u'];

/** A bash that reads no rc files and shows "$ " as its prompt, so screens are predictable. */
export const BASH_PRESET = { name: 'bash', argv: ['bash', '--norc', '--noprofile', '-i'], env: { PS1: '$ ', HISTFILE: '/dev/null' } };

/** The fake agent CLI (test/fixtures/fake-agent.ts) wired to patterm's MCP the way Claude Code is. */
export const FAKE_AGENT_PRESET = {
  name: 'fake',
  argv: [process.execPath, FAKE_AGENT],
  mcp_injection: { kind: 'config_file_flag', args: ['--mcp-config', '{config_file}'] },
  ready_signal: { kind: 'pattern', pattern: 'ready>', timeout_ms: 30_000 },
};

export interface PattermOptions {
  cols?: number;
  rows?: number;
  processPresets?: Record<string, unknown>;
  agentPresets?: Record<string, unknown>;
  shellPresets?: Record<string, unknown>;
  /** Raw text of config.json (a string, so tests can also write broken JSON). */
  config?: string;
  /** Extra environment for patterm (applied last: it may override the XDG directories). */
  env?: Record<string, string>;
  /** Where patterm runs; a fresh directory by default. */
  projectDir?: string;
  /** The script node runs: bin/patterm, or a test-only entry point such as FAULT_INJECTING_PATTERM. */
  bin?: string;
  /** Arguments after the script (`--resume`). */
  args?: string[];
}

export class TmuxPatterm {
  private get bin(): string {
    return this.options.bin ?? PATTERM_BIN;
  }
  readonly socket = `patterm-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly root = mkdtempSync(join(tmpdir(), 'patterm-tui-'));
  /** Every process started under this test carries it, so leftovers can be found in /proc. */
  readonly marker = `PATTERM_TEST_MARK=${randomBytes(8).toString('hex')}`;
  readonly dirs: { config: string; data: string; state: string; runtime: string; project: string };
  readonly sttyFile = join(this.root, 'stty-after-exit');

  private constructor(private readonly options: PattermOptions) {
    this.dirs = {
      config: join(this.root, 'config'),
      data: join(this.root, 'data'),
      state: join(this.root, 'state'),
      runtime: join(this.root, 'runtime'),
      project: options.projectDir ?? join(this.root, 'project'),
    };
  }

  static start(options: PattermOptions = {}): TmuxPatterm {
    const harness = new TmuxPatterm(options);
    harness.launch();
    return harness;
  }

  private launch(): void {
    const { config, data, runtime, project } = this.dirs;
    for (const dir of [config, data, project]) mkdirSync(dir, { recursive: true });
    mkdirSync(runtime, { recursive: true, mode: 0o700 });
    const presets = join(config, 'patterm', 'presets');
    mkdirSync(join(presets, 'processes'), { recursive: true });
    mkdirSync(join(presets, 'agents'), { recursive: true });
    mkdirSync(join(presets, 'shells'), { recursive: true });
    for (const [file, preset] of Object.entries(this.options.processPresets ?? { bash: BASH_PRESET })) {
      writeFileSync(join(presets, 'processes', `${file}.json`), typeof preset === 'string' ? preset : JSON.stringify(preset));
    }
    for (const [file, preset] of Object.entries(this.options.agentPresets ?? {})) {
      writeFileSync(join(presets, 'agents', `${file}.json`), typeof preset === 'string' ? preset : JSON.stringify(preset));
    }
    for (const [file, preset] of Object.entries(this.options.shellPresets ?? {})) {
      writeFileSync(join(presets, 'shells', `${file}.json`), typeof preset === 'string' ? preset : JSON.stringify(preset));
    }
    if (this.options.config !== undefined) writeFileSync(join(config, 'patterm', 'config.json'), this.options.config);
    // After patterm exits: report how, record the tty's mode, then replace the shell with a
    // marker-free sleep so any process still carrying the marker is a leftover of patterm's.
    const [markName] = this.marker.split('=');
    const script = [
      `cd ${shellQuote(project)}`,
      [process.execPath, this.bin, ...(this.options.args ?? [])].map(shellQuote).join(' '),
      `code=$?`,
      `stty -a > ${shellQuote(this.sttyFile)}`,
      `echo "[patterm exited $code]"`,
      `exec env -u ${markName} sleep 3600`,
    ].join('; ');
    const env = {
      ...UTF8_LOCALE,
      XDG_CONFIG_HOME: config,
      XDG_DATA_HOME: data,
      // Ledgers, worktree and layout records go here, never into the user's own state directory.
      XDG_STATE_HOME: this.dirs.state,
      XDG_CACHE_HOME: join(this.root, 'cache'),
      XDG_RUNTIME_DIR: runtime,
      PATTERM_LOG: join(this.root, 'patterm.log'),
      [markName]: this.marker.split('=')[1],
      ...this.options.env,
    };
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-x', String(this.options.cols ?? 120), '-y', String(this.options.rows ?? 40),
      ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]), 'sh', '-c', script);
    killServerWhenGone(this.socket);
    this.tmux('set-option', '-g', 'escape-time', '0');
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', [...TMUX_CLIENT, '-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The screen as plain text lines (no colours). */
  screen(): string[] {
    return this.tmux('capture-pane', '-p').replace(/\n$/, '').split('\n');
  }

  /** Just the main area (the focused pane), trailing blanks trimmed, for the current window size. */
  mainArea(lines: string[] = this.screen()): string[] {
    const { main } = computeLayout(Number(this.format('#{window_width}')), Number(this.format('#{window_height}')));
    return lines.slice(main.y, main.y + main.rows).map((line) => columns(line, main.x, main.x + main.cols).trimEnd());
  }

  /** The main area as "char|style" per cell, for comparing colours and attributes too. */
  styledMainArea(): string[] {
    const { main } = computeLayout(Number(this.format('#{window_width}')), Number(this.format('#{window_height}')));
    return styledLines(this.styledScreen())
      .slice(main.y, main.y + main.rows)
      .map((cells) => describeCells(trimBlanks(cells.slice(main.x, main.x + main.cols))));
  }

  /** The screen with SGR escapes (capture-pane -e), for checks that need styles. */
  styledScreen(): string[] {
    return this.tmux('capture-pane', '-p', '-e').replace(/\n$/, '').split('\n');
  }

  /** A tmux format about the pane, e.g. "#{cursor_x}" or "#{alternate_on}". */
  format(format: string): string {
    return this.tmux('display-message', '-p', format).trim();
  }

  /** Where the host terminal's cursor is, as "x,y" relative to the main area, or "hidden". */
  mainAreaCursor(): string {
    const { main } = computeLayout(Number(this.format('#{window_width}')), Number(this.format('#{window_height}')));
    const [x, y, shown] = this.format('#{cursor_x},#{cursor_y},#{cursor_flag}').split(',').map(Number);
    return shown === 1 ? `${x - main.x},${y - main.y}` : 'hidden';
  }

  /** Polls `read` (a cursor, a tmux format) until it gives `expected`; throws with the last value when it never does. */
  async waitForValue(read: () => string, expected: string, what: string, timeoutMs = SCREEN_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let value = read();
    while (value !== expected && Date.now() < deadline) {
      await sleep(POLL_MS);
      value = read();
    }
    if (value !== expected) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: expected ${JSON.stringify(expected)}, last ${JSON.stringify(value)}`);
  }

  /** Polls until the screen satisfies the check; throws with the last screen when it never does. */
  async waitFor(check: RegExp | ((lines: string[]) => boolean), what = String(check), timeoutMs = SCREEN_TIMEOUT_MS): Promise<string[]> {
    const test = typeof check === 'function' ? check : (lines: string[]) => check.test(lines.join('\n'));
    const deadline = Date.now() + timeoutMs;
    let lines: string[] = [];
    while (Date.now() < deadline) {
      lines = this.screen();
      if (test(lines)) return lines;
      await sleep(POLL_MS);
    }
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; screen was:\n${lines.join('\n')}\n--- patterm log:\n${this.log()}`);
  }

  /** Keys by tmux name ("C-k", "Enter", "Up"). */
  keys(...keys: string[]): void {
    this.tmux('send-keys', ...keys);
  }

  /** Literal text, typed. */
  type(text: string): void {
    this.tmux('send-keys', '-l', text);
  }

  /** Pastes text the way a terminal does (bracketed, since patterm enables it on the host). */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'test', text);
    this.tmux('paste-buffer', '-p', '-d', '-b', 'test');
  }

  /** A mouse click at a 0-based cell, as the host terminal reports it (SGR, press then release). */
  click(x: number, y: number): void {
    // tmux's send-keys cannot synthesise a mouse event into the pane; write the report the terminal would send.
    this.tmux('send-keys', '-H', ...hex(`\x1b[<0;${x + 1};${y + 1}M\x1b[<0;${x + 1};${y + 1}m`));
  }

  /** One wheel notch at a 0-based cell (SGR report, as the host terminal sends it): up is back in time. */
  wheel(x: number, y: number, direction: 'up' | 'down' | 'left' | 'right'): void {
    // SGR mouse buttons 64-67: wheel up, down, and the sideways swipe's left and right.
    const button = { up: 64, down: 65, left: 66, right: 67 }[direction];
    this.tmux('send-keys', '-H', ...hex(`\x1b[<${button};${x + 1};${y + 1}M`));
  }

  resize(cols: number, rows: number): void {
    this.tmux('resize-window', '-x', String(cols), '-y', String(rows));
  }

  /**
   * Types `/call <tool> <json>` into the focused fake agent (test/fixtures/fake-agent.ts) and waits
   * for its result line; throws when the call ends otherwise than `outcome`.
   */
  async callTool(tool: string, args: unknown, outcome: 'result' | 'error' = 'result'): Promise<string> {
    const marker = `| ${tool}:`;
    const count = (lines: string[]) => lines.filter((line) => line.includes(marker)).length;
    const before = count(this.screen());
    this.type(`/call ${tool} ${JSON.stringify(args)}`);
    this.keys('Enter');
    const lines = await this.waitFor((l) => count(l) > before, `${tool} to finish`);
    const result = lines.filter((line) => line.includes(marker)).pop()!;
    if (!result.includes(`${outcome}|`)) throw new Error(`${tool}: expected ${outcome}, got ${result}`);
    return result;
  }

  /** Opens the palette, filters with `query`, waits for `entry` to be the selected row, and runs it. */
  async runPalette(query: string, entry: RegExp | string): Promise<void> {
    this.keys('C-k');
    await this.waitFor(/Command palette/, 'the palette');
    this.type(query);
    await this.waitFor((lines) => lines.some((line) => line.includes(typeof entry === 'string' ? entry : '') || (entry instanceof RegExp && entry.test(line))), `palette entry ${entry}`);
    this.keys('Enter');
  }

  /** Starts the bash preset as a new session from the palette and waits for its prompt in the main area. */
  async spawnBash(what = 'the bash prompt'): Promise<void> {
    await this.runPalette('bash', 'Run process: bash');
    await this.waitFor((lines) => this.mainArea(lines)[0] === '$', what);
  }

  /** PIDs of live processes that carry this test's marker (patterm and everything it started). */
  markedProcesses(): number[] {
    const needle = Buffer.from(this.marker);
    const found: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const environ = readFileSync(`/proc/${entry}/environ`);
        const state = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (environ.includes(needle) && !/\) Z /.test(state)) found.push(Number(entry));
      } catch {
        // Gone, or not ours to read.
      }
    }
    return found;
  }

  /** The patterm (node) process itself. */
  pattermPid(): number | null {
    for (const pid of this.markedProcesses()) {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        // Its agents' MCP proxies and hooks run the same script, with a subcommand.
        if (argv[1] === this.bin && argv.slice(2, -1).join('\0') === (this.options.args ?? []).join('\0')) return pid;
      } catch {
        // Gone.
      }
    }
    return null;
  }

  /** Waits for patterm to exit and checks the host terminal is back as it was; returns the exit line. */
  async expectExitAndRestore(code: number): Promise<void> {
    await this.waitFor(new RegExp(`\\[patterm exited ${code}\\]`), `patterm to exit with ${code}`);
    const flags = this.format('#{alternate_on} #{cursor_flag} #{mouse_any_flag}#{mouse_button_flag}#{mouse_all_flag}#{mouse_standard_flag}#{mouse_sgr_flag} #{keypad_cursor_flag}');
    if (flags !== '0 1 00000 0') throw new Error(`host terminal not restored: alternate cursor mouse keypad = ${flags}`);
    const stty = await eventually(() => {
      try {
        return readFileSync(this.sttyFile, 'utf8');
      } catch {
        return '';
      }
    }, 'the stty record');
    if (!/(^|\s)icanon(\s|$)/.test(stty) || !/(^|\s)echo(\s|$)/.test(stty)) throw new Error(`tty left in raw mode:\n${stty}`);
    await eventually(() => this.markedProcesses().length === 0, `every process patterm started to end (left: ${this.markedProcesses().join(' ')})`);
  }

  /** PATTERM_LOG's file, or, for a test that unset it, the run logs patterm wrote by default. */
  log(): string {
    try {
      return readFileSync(join(this.root, 'patterm.log'), 'utf8');
    } catch {
      return this.runLogs().map((file) => readFileSync(file, 'utf8')).join('') || '(no log)';
    }
  }

  /** The run logs patterm wrote by default (without PATTERM_LOG): `$XDG_STATE_HOME/patterm/logs/*.log`. */
  runLogs(): string[] {
    const dir = join(this.root, 'state', 'patterm', 'logs');
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.log')).map((name) => join(dir, name));
    } catch {
      return [];
    }
  }

  stop(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
    // After the hangup patterm shuts down in order (SIGTERM, a grace window for panes that ignore
    // it, SIGKILL) and logs into this directory meanwhile, which raced its removal. A test that
    // checks the shutdown has done so before stop(); here it only has to end.
    // patterm's orphan watchdog carries the marker too: it is spared until the deadline, as once
    // patterm is gone it removes the MCP socket and the agents' token directories it registered.
    const deadline = Date.now() + STOP_WAIT_MS;
    for (let left = this.markedProcesses(); left.length > 0; left = this.markedProcesses()) {
      const overdue = Date.now() >= deadline;
      for (const pid of left) {
        try {
          if (overdue || !isOrphanWatchdog(pid)) process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      if (overdue) break;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, POLL_MS); // stop() is synchronous
    }
    // Programs that just got their SIGHUP (vim removing its swap file) can still be writing here.
    rmSync(this.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

/** patterm in tmux with one bash session open at its prompt; stopped afterwards whatever happens. */
export async function withBashSession(run: (patterm: TmuxPatterm) => Promise<void>): Promise<void> {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.spawnBash();
    await run(patterm);
  } finally {
    patterm.stop();
  }
}

/** patterm's orphan watchdog (orphan-watchdog.ts): the one process given the instance marker to sweep for. */
function isOrphanWatchdog(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').some((entry) => entry.startsWith(`MARKER=${INSTANCE_MARKER_VAR}=`));
  } catch {
    return false; // gone
  }
}

export { sleep } from '../../helpers/wait.js';
import { sleep } from '../../helpers/wait.js';

export async function eventually<T>(probe: () => T, what: string, timeoutMs = SCREEN_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = probe();
  while (!last && Date.now() < deadline) {
    await sleep(POLL_MS);
    last = probe();
  }
  if (!last) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  return last;
}

export interface StyledCell {
  text: string;
  style: string;
  /** A space with no background and nothing drawn through it: looks like an empty cell. */
  blank: boolean;
}

/**
 * Reads `capture-pane -e` output as one entry per screen column: the character
 * and its style, normalised (tmux may spell one style several ways, and
 * carries styles over from one line to the next). The column after a wide
 * character is "". Trailing blank cells are dropped, as capture-pane does.
 */
export function styledLines(capture: string[]): StyledCell[][] {
  let fg = 'default';
  let bg = 'default';
  let attrs = new Set<number>();
  const sgr = (params: number[]) => {
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      if (p === 0) [fg, bg, attrs] = ['default', 'default', new Set()];
      else if (p >= 1 && p <= 9) attrs.add(p);
      else if (p === 22) (attrs.delete(1), attrs.delete(2));
      else if (p >= 23 && p <= 29) attrs.delete(p - 20);
      else if ((p >= 30 && p <= 37) || (p >= 90 && p <= 97)) fg = `c${p}`;
      else if ((p >= 40 && p <= 47) || (p >= 100 && p <= 107)) bg = `c${p}`;
      else if (p === 39) fg = 'default';
      else if (p === 49) bg = 'default';
      else if (p === 38 || p === 48) {
        const value = params[i + 1] === 5 ? `i${params[i + 2]}` : `rgb${params.slice(i + 2, i + 5).join(',')}`;
        i += params[i + 1] === 5 ? 2 : 4;
        if (p === 38) fg = value;
        else bg = value;
      }
    }
  };
  return capture.map((line) => {
    const cells: StyledCell[] = [];
    // Text runs between SGR sequences are segmented whole, so combining marks stay with their base.
    line.split(/\x1b\[([0-9;:]*)m/).forEach((part, index) => {
      if (index % 2 === 1) {
        sgr(part === '' ? [0] : part.split(/[;:]/).map(Number));
        return;
      }
      const style = `${fg}/${bg}/${[...attrs].sort().join('')}`;
      const blank = bg === 'default' && ![4, 7, 9].some((attr) => attrs.has(attr));
      for (const g of graphemes(part)) {
        cells.push({ text: g.text, style, blank: blank && g.text === ' ' });
        for (let spacer = 1; spacer < hostWidth(g.text); spacer++) cells.push({ text: '', style, blank: false });
      }
    });
    return trimBlanks(cells);
  });
}

export function trimBlanks(cells: StyledCell[]): StyledCell[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1].blank) end--;
  return cells.slice(0, end);
}

export function describeCells(cells: StyledCell[]): string {
  return cells.map((cell) => `${cell.text}|${cell.style}`).join(' ');
}

/** The part of a captured line between two screen columns (wide characters take two). */
export function columns(line: string, from: number, to: number): string {
  let col = 0;
  let out = '';
  for (const g of graphemes(line)) {
    const width = hostWidth(g.text);
    if (col >= from && col + width <= to) out += g.text;
    col += width;
  }
  return out;
}

/**
 * Columns tmux gives a grapheme: the sum of its code points' wcwidth, not
 * the cluster's width (a character with VS16 takes one cell, a skin-toned
 * emoji four).
 */
function hostWidth(grapheme: string): number {
  let width = 0;
  for (const char of grapheme) {
    const code = char.codePointAt(0)!;
    if (/[\p{M}\p{Cf}]/u.test(char)) continue; // combining marks, variation selectors, ZWJ, ZWSP: no cell
    width += code >= 0x1f3fb && code <= 0x1f3ff ? 2 : textWidth(char); // skin-tone modifiers are wide on their own
  }
  return width;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function hex(text: string): string[] {
  return [...Buffer.from(text)].map((byte) => byte.toString(16).padStart(2, '0'));
}
