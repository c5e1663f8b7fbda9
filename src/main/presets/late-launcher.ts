/**
 * An AgentLauncher handed to the TUI before the real one exists: the app
 * starts its MCP server (which makes the launcher) after the renderer's first
 * frame, and a palette spawn issued meanwhile waits for it instead of failing
 * or starting an agent without its MCP config.
 */
import type { AgentPreset } from '../../shared/preset-schema.js';
import type { PaneId } from '../../shared/pane-types.js';
import type { AgentLauncher } from '../contracts.js';

export class LateLauncher implements AgentLauncher {
  private launcher: AgentLauncher | null = null;
  private readonly ready: Promise<AgentLauncher>;
  private settle: { resolve(launcher: AgentLauncher): void; reject(error: Error): void } | null = null;

  /** `what` names what makes the launcher, for the error calls get when it failed. */
  constructor(private readonly what: string) {
    this.ready = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // Handled here so that a failure nobody was waiting on is no unhandled rejection: fail()'s caller reports it.
    this.ready.catch(() => undefined);
  }

  /** Hands over the real launcher: calls waiting for it go ahead. */
  bind(launcher: AgentLauncher): void {
    this.launcher = launcher;
    this.settle?.resolve(launcher);
  }

  /** The launcher will never come: calls waiting for it, and later ones, fail naming `error`. */
  fail(error: Error): void {
    this.settle?.reject(new Error(`${this.what} did not start: ${error.message}`, { cause: error }));
  }

  async spawnAgent(request: Parameters<AgentLauncher['spawnAgent']>[0]): ReturnType<AgentLauncher['spawnAgent']> {
    return (await this.ready).spawnAgent(request);
  }

  async spawnProcess(request: Parameters<AgentLauncher['spawnProcess']>[0]): ReturnType<AgentLauncher['spawnProcess']> {
    return (await this.ready).spawnProcess(request);
  }

  async submit(...args: Parameters<AgentLauncher['submit']>): ReturnType<AgentLauncher['submit']> {
    return (await this.ready).submit(...args);
  }

  /** Undefined until the launcher is there: no pane can come from a preset before it. */
  presetFor(paneId: PaneId): AgentPreset | undefined {
    return this.launcher?.presetFor(paneId);
  }

  async chromeTrim(...args: Parameters<AgentLauncher['chromeTrim']>): ReturnType<AgentLauncher['chromeTrim']> {
    return (await this.ready).chromeTrim(...args);
  }
}
