/**
 * A private tmux server for one probe: its own socket (-L) and no user config,
 * so nothing the user runs is touched and the baseline is tmux's defaults.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { PANE } from './fence.js';

const run = promisify(execFile);

export function tmuxInstalled(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export class TmuxServer {
  readonly socket = `patterm-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private started = false;

  private args(...rest: string[]): string[] {
    return ['-L', this.socket, '-f', '/dev/null', ...rest];
  }

  /** Shell-quoted `tmux -L <socket> wait-for -S <channel>`, to append to a pane's command. */
  signalCommand(channel: string): string {
    return `tmux -L ${this.socket} wait-for -S ${channel}`;
  }

  async tmux(...rest: string[]): Promise<string> {
    const { stdout } = await run('tmux', this.args(...rest), { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  }

  /**
   * Starts the server now, with an idle first window, so that a pane
   * timed from newPane() is timed in a running server, as patterm's is after
   * Coordinator.prewarm().
   */
  async start(): Promise<void> {
    await this.newPane('exec sleep 86400');
  }

  /** First call starts the server with a detached session; later calls add windows of the same size. */
  async newPane(shellCommand: string): Promise<void> {
    if (!this.started) {
      this.started = true;
      await this.tmux('new-session', '-d', '-x', String(PANE.cols), '-y', String(PANE.rows), shellCommand);
    } else {
      await this.tmux('new-window', '-d', shellCommand);
    }
  }

  waitFor(channel: string): Promise<string> {
    return this.tmux('wait-for', channel);
  }

  async serverPid(): Promise<number> {
    return Number((await this.tmux('display-message', '-p', '#{pid}')).trim());
  }

  kill(): void {
    try {
      execFileSync('tmux', this.args('kill-server'), { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  }
}
