/**
 * Start-up: a program launched in a real PTY (the host terminal) until its
 * first frame is on the screen, then, for patterm, Quit from the palette (once
 * it has settled) until the process has exited. Each launch is a fresh process; patterm's config,
 * data and cache directories are made by an untimed first launch, so the timed ones are
 * a returning user's (no default presets copied, the app's code cache written).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TmuxServer } from '../harness/tmux-server.js';
import { HostTerminal, sleep } from '../harness/tui-host-terminal.js';
import { PATTERM_BIN } from '../../src/main/version.js';

/** What patterm's empty state says once its first frame is drawn. */
const PATTERM_FIRST_FRAME = 'Press Ctrl-K';
/** Between launches: the last one's threads and children are gone, the machine quiet again. */
const PAUSE_MS = 300;
/**
 * Quit is timed in a running patterm, not one still starting: just after its
 * first frame it boots the PTY host and a spare pane worker and loads the MCP
 * SDK, and a Quit then waited ~100 ms for them, where it takes 17-30 ms after.
 */
const SETTLE_BEFORE_QUIT_MS = 500;

export type StartUpContender = 'patterm' | 'tmux' | 'node';

export interface StartUpArgs {
  contender: StartUpContender;
  launches: number;
  cols: number;
  rows: number;
}

export interface StartUpResult {
  /** Spawn to first frame, per launch. */
  firstFrameMs: number[];
  /** patterm: Enter on the palette's Quit until the process exited, per launch. */
  quitMs: number[];
}

export default async function startUp(args: StartUpArgs): Promise<StartUpResult> {
  const root = mkdtempSync(join(tmpdir(), 'patterm-bench-start-'));
  mkdirSync(join(root, 'runtime'), { mode: 0o700 });
  const env = { XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), XDG_CACHE_HOME: join(root, 'cache'), XDG_STATE_HOME: join(root, 'state'), XDG_RUNTIME_DIR: join(root, 'runtime') };
  const result: StartUpResult = { firstFrameMs: [], quitMs: [] };
  try {
    if (args.contender === 'patterm') await launchPatterm(args, root, env); // makes the config and data directories
    for (let i = 0; i < args.launches; i++) {
      await sleep(PAUSE_MS);
      if (args.contender === 'patterm') {
        const { firstFrameMs, quitMs } = await launchPatterm(args, root, env);
        result.firstFrameMs.push(firstFrameMs);
        result.quitMs.push(quitMs);
      } else result.firstFrameMs.push(args.contender === 'tmux' ? await launchTmux(args) : await launchNode(args));
    }
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function launchPatterm(args: StartUpArgs, root: string, env: Record<string, string>): Promise<{ firstFrameMs: number; quitMs: number }> {
  const host = new HostTerminal(process.execPath, [PATTERM_BIN], { cols: args.cols, rows: args.rows, cwd: root, env });
  try {
    const firstFrameMs = await host.timeUntilText(PATTERM_FIRST_FRAME);
    await sleep(SETTLE_BEFORE_QUIT_MS);
    host.write('\x0b');
    await host.waitForText('Command palette', 'the palette');
    host.write('Quit');
    await host.waitForText(/›\s*Quit/, 'Quit typed in the palette');
    const quitAt = performance.now();
    host.write('\r');
    const code = await host.exited;
    if (code !== 0) throw new Error(`patterm exited with ${code} after Quit`);
    return { firstFrameMs, quitMs: performance.now() - quitAt };
  } catch (error) {
    host.kill();
    throw error;
  }
}

/** tmux's first frame: a new server and session, until the session's shell prompt is drawn. */
async function launchTmux(args: StartUpArgs): Promise<number> {
  const server = new TmuxServer();
  const host = new HostTerminal('tmux', ['-L', server.socket, '-f', '/dev/null', 'new-session', 'env', 'PS1=ready$ ', 'bash', '--norc', '--noprofile', '-i'], { cols: args.cols, rows: args.rows });
  try {
    return await host.timeUntilText('ready$');
  } finally {
    host.kill();
    server.kill();
  }
}

/** The floor for a Node program: Node starting and printing one line. */
async function launchNode(args: StartUpArgs): Promise<number> {
  const host = new HostTerminal(process.execPath, ['-e', 'process.stdout.write("ready\\n")'], { cols: args.cols, rows: args.rows });
  try {
    const ms = await host.timeUntilText('ready');
    await host.exited;
    return ms;
  } finally {
    host.kill();
  }
}
