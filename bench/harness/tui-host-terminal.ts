/**
 * A host terminal for the TUI bench: the program under test (patterm, tmux, or
 * a bare shell) runs in a real PTY, exactly as in the user's terminal. Setup
 * waits read a parsed screen (@xterm/headless); echo timing looks at the raw
 * output bytes, so parsing cost never enters the measurement.
 */
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';

/** Setup steps (starting patterm, spawning panes) get this long before the probe gives up. */
const SETUP_TIMEOUT_MS = 60_000;
/** One echo that takes longer than this is recorded as this (and the probe moves on). */
const ECHO_TIMEOUT_MS = 5_000;

export interface HostTerminalOptions {
  cols: number;
  rows: number;
  env?: Record<string, string>;
  cwd?: string;
}

export class HostTerminal {
  private readonly child: pty.IPty;
  private readonly screen: InstanceType<typeof xtermHeadless.Terminal>;
  private waiter: { char: string; resolve: () => void } | null = null;
  /** When the program was spawned: what timeUntilText counts from. */
  readonly spawnedAt: number;
  /** Resolves with the exit code when the program has exited. */
  readonly exited: Promise<number>;
  private textWatch: { text: string; resolve: (at: number) => void } | null = null;

  constructor(file: string, args: string[], options: HostTerminalOptions) {
    this.screen = new xtermHeadless.Terminal({ cols: options.cols, rows: options.rows, allowProposedApi: true });
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    this.spawnedAt = performance.now();
    this.child = pty.spawn(file, args, {
      cols: options.cols,
      rows: options.rows,
      name: 'xterm-256color',
      cwd: options.cwd,
      env: { ...env, ...options.env },
      encoding: null,
    } as pty.IPtyForkOptions);
    this.screen.onData((reply) => this.child.write(reply)); // answer the program's terminal queries
    this.child.onData((data) => {
      const chunk = data as unknown as Buffer;
      if (this.waiter && chunk.includes(this.waiter.char)) {
        const { resolve } = this.waiter;
        this.waiter = null;
        resolve();
      }
      const arrived = performance.now();
      this.screen.write(chunk, () => this.checkText(arrived));
    });
    this.exited = new Promise((resolve) => this.child.onExit(({ exitCode }) => resolve(exitCode)));
  }

  /**
   * Milliseconds from the spawn until the screen first shows `text`, checked
   * as each chunk of output is parsed rather than polled: the time is the
   * arrival of the chunk that drew it.
   */
  timeUntilText(text: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${this.text()}`)), SETUP_TIMEOUT_MS);
      this.textWatch = {
        text,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at - this.spawnedAt);
        },
      };
      this.checkText(performance.now());
    });
  }

  /** `arrived`: when the chunk just parsed came in. */
  private checkText(arrived: number): void {
    if (!this.textWatch || !this.text().includes(this.textWatch.text)) return;
    const { resolve } = this.textWatch;
    this.textWatch = null;
    resolve(arrived);
  }

  write(data: string): void {
    this.child.write(data);
  }

  text(): string {
    const buffer = this.screen.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.screen.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  async waitForText(pattern: string | RegExp, what = String(pattern)): Promise<void> {
    const deadline = performance.now() + SETUP_TIMEOUT_MS;
    const matches = () => (typeof pattern === 'string' ? this.text().includes(pattern) : pattern.test(this.text()));
    while (!matches()) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${this.text()}`);
      await sleep(20);
    }
  }

  /**
   * Types one character and returns the milliseconds until the program's output
   * contains it. The caller picks characters that no redraw of the UI emits.
   */
  async echo(char: string): Promise<number> {
    const started = performance.now();
    const seen = new Promise<void>((resolve) => (this.waiter = { char, resolve }));
    this.child.write(char);
    await Promise.race([seen, sleep(ECHO_TIMEOUT_MS)]);
    this.waiter = null;
    return performance.now() - started;
  }

  kill(): void {
    try {
      this.child.kill('SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Characters no UI redraw emits (none is a CSI final byte patterm, tmux or bash uses here). */
export const ECHO_CHARS = 'xyzwvu';
/** Keystrokes this far apart: fast typing, and longer than one frame, so the frame cap adds no delay of its own. */
export const KEY_INTERVAL_MS = 30;
/** Readline's line is cleared (Ctrl-U) this often, so the echo never wraps. */
export const CHARS_PER_LINE = 30;

/** Types `count` characters at a steady pace and returns each echo time. */
export async function sampleEchoes(host: HostTerminal, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % CHARS_PER_LINE === 0) {
      host.write('\x15');
      await sleep(100);
    }
    samples.push(await host.echo(ECHO_CHARS[i % ECHO_CHARS.length]));
    await sleep(KEY_INTERVAL_MS);
  }
  return samples;
}
