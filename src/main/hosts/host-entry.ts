/**
 * The MCP server entry an outside host needs to drive a session of a running
 * patterm: `patterm mcp-stdio` with the socket and the session's identity
 * token, written as each host takes it (the generic `mcpServers` JSON, which
 * Claude Code's `--mcp-config` and `.mcp.json` read too; `claude mcp add`;
 * codex's `-c` overrides; opencode's config). The file is 0600: the token in
 * it lets whoever has it act as the session's orchestrator.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../node/atomic-write.js';
import { DEFAULT_SERVER_NAME as SERVER_NAME, mcpServersConfig, tomlString } from '../presets/mcp-injection.js';
/** As the opencode preset: past the longest wait a patterm tool allows (30 minutes). */
export const OPENCODE_TIMEOUT_MS = 1_860_000;
/** The same for codex, whose tool calls time out after 60 s unless told otherwise. */
export const CODEX_TOOL_TIMEOUT_SEC = 1860;
const SECRET_FILE_MODE = 0o600;

export interface ServerEntry {
  command: string;
  args: string[];
}

/** An argv (the proxy command) as the entry hosts take: the program, then its arguments. */
export function entryOf(argv: readonly string[]): ServerEntry {
  return { command: argv[0], args: argv.slice(1) };
}

/** `{"mcpServers": {"patterm": {...}}}`: what `--mcp-config`, `.mcp.json` and most hosts read. */
export function mcpServersJson(entry: ServerEntry): string {
  return JSON.stringify(mcpServersConfig(SERVER_NAME, entry.command, entry.args), null, 2) + '\n';
}

/** One line per host that starts it with this entry, for the session's board. */
export function setupLines(entry: ServerEntry, file: string): string[] {
  const argv = [entry.command, ...entry.args];
  const codex = [
    `mcp_servers.${SERVER_NAME}.command=${tomlString(entry.command)}`,
    `mcp_servers.${SERVER_NAME}.args=[${entry.args.map(tomlString).join(',')}]`,
    // Without it, codex may send its first turn before patterm's tools are listed.
    `mcp_servers.${SERVER_NAME}.required=true`,
    `mcp_servers.${SERVER_NAME}.tool_timeout_sec=${CODEX_TOOL_TIMEOUT_SEC}`,
  ];
  const opencode = { mcp: { [SERVER_NAME]: { type: 'local', command: argv, enabled: true, timeout: OPENCODE_TIMEOUT_MS } } };
  return [
    `  Claude Code:  claude --mcp-config ${shellQuote(file)}`,
    `           or:  claude mcp add ${SERVER_NAME} -- ${argv.map(shellQuote).join(' ')}`,
    `  codex:        codex ${codex.map((override) => `-c ${shellQuote(override)}`).join(' ')}`,
    `  opencode:     OPENCODE_CONFIG_CONTENT=${shellQuote(JSON.stringify(opencode))} opencode`,
  ];
}

/** Writes the entry as `mcpServers` JSON, readable by the user alone. */
export async function writeEntryFile(path: string, entry: ServerEntry): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, mcpServersJson(entry), SECRET_FILE_MODE);
}

/** A word for sh: left bare when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
