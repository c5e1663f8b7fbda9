/**
 * Command-line entry. Thin by design: parse argv, then hand over to the module
 * that owns the command. Subcommand modules load lazily so `--help` stays fast.
 */
import { VERSION } from './version.js';
import { APP_ENTRY, CODE_CACHE_SAVE_DELAY_MS, HEADLESS_ENTRY, loadBundle } from './bundles.js';
import type { CachedBundle } from '../node/code-cache.js';
import type { Worker } from 'node:worker_threads';

export const USAGE = `patterm ${VERSION}: a terminal-based agent orchestration shell

Usage:
  patterm                      Start the TUI in the current directory
  patterm --resume             Start the TUI with the last run's sessions, agents on their conversations
  patterm presets              List the presets that load, and any preset errors
  patterm mcp [--project <dir>]
                               Headless stdio MCP server: an MCP host (Claude Code,
                               codex, opencode, an IDE) runs it and orchestrates one
                               session; --project defaults to the current directory
  patterm mcp-stdio --socket <path> --identity <token>
                               Stdio MCP proxy that agent CLIs launch (not for humans)
  patterm conversation-report --file <path>
                               Records an agent CLI's conversation hook for --resume (not for humans)
  patterm --help | -h          Show this help
  patterm --version | -v       Print the version and where the logs are

In the TUI, Ctrl-K opens the command palette; Ctrl-K Ctrl-K sends a literal Ctrl-K.
Presets:      $XDG_CONFIG_HOME/patterm/presets/{agents,processes}/*.json
Scratchpads:  $XDG_DATA_HOME/patterm/projects/<key>/scratchpads/
Logs:         $XDG_STATE_HOME/patterm/logs/ (one file per run; PATTERM_LOG=<file> overrides)
Resume:       $XDG_STATE_HOME/patterm/projects/<key>/resume/
`;

/** The `--version` line that says where logs go. */
async function logLocation(): Promise<string> {
  const { logDirectory } = await import('../node/run-log.js');
  const directory = logDirectory();
  return process.env.PATTERM_LOG ? `logs: ${directory} (PATTERM_LOG sends this shell's runs to ${process.env.PATTERM_LOG})` : `logs: ${directory}`;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses `--name value` pairs; every flag must be known and have a value. */
export function parseFlags(args: string[], known: readonly string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [name, inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [null, undefined];
    if (name === null || !known.includes(name)) {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}; expected one of ${known.map((k) => `--${k}`).join(', ')}`);
    }
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return flags;
}

async function startTui(resume?: Extract<import('./resume/resume-choice.js').ResumeChoice, { ok: true }>, bootedRenderer?: Worker): Promise<void> {
  // First, so the renderer loads its modules while this thread loads the app's (renderer-boot.cts).
  const rendererThread = bootedRenderer ?? (process.stdin.isTTY && process.stdout.isTTY ? (await import('./tui/renderer-host.js')).bootRendererThread() : undefined);
  const app = await loadBundle(APP_ENTRY);
  await (app.exports as typeof import('./app.js')).runApp({ projectDir: process.cwd(), rendererThread, resume });
  // Past the first frame and the boots that follow it, so V8 caches what they compiled too.
  setTimeout(() => app.saveCache(), CODE_CACHE_SAVE_DELAY_MS).unref();
}

/**
 * `rendererThread`: the TUI's renderer thread, when the launcher started it
 * ahead of this module (bin/patterm, with no arguments in a terminal).
 */
export async function main(argv: string[], rendererThread?: Worker): Promise<void> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        await startTui(undefined, rendererThread);
        return;
      case '--resume': {
        if (rest.length > 0) throw new UsageError(`--resume takes no arguments (received ${rest.map((arg) => JSON.stringify(arg)).join(' ')})`);
        // Before the terminal is taken: a refusal is a plain message, and nothing starts.
        const { chooseRecord } = await import('./resume/resume-choice.js');
        const choice = chooseRecord(process.cwd());
        if (!choice.ok) {
          process.stderr.write(`patterm: --resume: ${choice.message}\n`);
          process.exitCode = 1;
          return;
        }
        await startTui(choice);
        return;
      }
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return;
      case '--version':
      case '-v':
        process.stdout.write(`${VERSION}\n${await logLocation()}\n`);
        return;
      case 'mcp-stdio': {
        const flags = parseFlags(rest, ['socket', 'identity']);
        if (!flags.socket) throw new UsageError('mcp-stdio needs --socket <path>');
        if (!flags.identity) throw new UsageError('mcp-stdio needs --identity <token>');
        const { runStdioProxy } = await import('./mcp/transport/stdio-proxy.js');
        process.exitCode = await runStdioProxy({ socketPath: flags.socket, identity: flags.identity });
        return;
      }
      case 'mcp': {
        const flags = parseFlags(rest, ['project']);
        // Plain modules, not a bundle: until the host's initialize is answered, loading the code cache costs more than it saves.
        const [{ parseMcpFlags }, { runMcpCommand }] = await Promise.all([import('./hosts/mcp-flags.js'), import('./hosts/mcp-command.js')]);
        const parsed = parseMcpFlags(flags);
        if ('error' in parsed) throw new UsageError(`mcp: ${parsed.error}`);
        let headless: CachedBundle | null = null;
        // A host may let go within moments (a health check): the cache is written on the way out then.
        const saveCache = () => headless?.saveCache();
        process.once('exit', saveCache);
        await runMcpCommand(parsed, async () => (headless = await loadBundle(HEADLESS_ENTRY)));
        setTimeout(saveCache, CODE_CACHE_SAVE_DELAY_MS).unref();
        return;
      }
      case 'conversation-report': {
        const flags = parseFlags(rest, ['file']);
        if (!flags.file) throw new UsageError('conversation-report needs --file <path>');
        const { runConversationReport } = await import('./resume/report-command.js');
        process.exitCode = await runConversationReport(flags.file);
        return;
      }
      case 'presets': {
        if (rest.length > 0) throw new UsageError(`presets takes no arguments (received ${rest.map((arg) => JSON.stringify(arg)).join(' ')})`);
        const { runPresetsCommand } = await import('./presets/presets-command.js');
        process.exitCode = await runPresetsCommand();
        return;
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`patterm: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}
